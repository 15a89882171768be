"""The counter: the public page that counts a pile of cards with the pair method."""
