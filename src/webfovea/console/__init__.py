"""What the commands share with the rooms they drive: the typed run options built from the
flags, the input checks, Ctrl-C and SIGTERM handling, and the live step view."""
