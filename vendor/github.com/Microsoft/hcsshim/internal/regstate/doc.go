package regstate
