print("peershare")
