"""What a club argues about: ratings, head to head and partners, records, contracts; only
members see them."""
