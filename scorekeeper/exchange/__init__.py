"""The data exchange: club archives, deal sheets, CSV both ways, exports and the texts of
refusals. Turns files into the plain data the services store, and stored data into files;
writes nothing itself and never imports ``screens``.
"""
