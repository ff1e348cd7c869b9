"""The tables shipped with tricksim (data only): ``<kind>-<key>.npz`` and its manifest ``<kind>-<key>.json``,
written by ``tricksim tables --regenerate`` (analysis/tables.py, analysis/cache.py ``write_shipped``)."""
