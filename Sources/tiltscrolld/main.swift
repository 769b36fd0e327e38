print("tiltscrolld")
