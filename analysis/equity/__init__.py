"""The report's ``equity`` section (report.py): the games' match equity tables live in the games (analysis/boulmous/equity/,
analysis/boomke_wies/equity.py) and write their parts through ``Game.equity_report``."""
