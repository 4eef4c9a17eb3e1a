print("peershared")
