"""Web archives (WARC, ARC, WACZ, HAR) in and out of site snapshots.

An archive is imported into an ordinary snapshot (``webfovea snapshot import``), so the
replay, the domain lock and ``inspect`` treat it like a recording of ours; a snapshot is
exported as a standard WARC or WACZ (``webfovea snapshot export``).
"""
