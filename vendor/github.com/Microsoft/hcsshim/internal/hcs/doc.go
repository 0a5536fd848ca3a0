package hcs
