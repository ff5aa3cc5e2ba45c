print("opencoredata-demo")
