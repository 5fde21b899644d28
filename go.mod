module bomberzero

go 1.26
