package runhcs
