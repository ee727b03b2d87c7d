"""Crawl scope: which URLs may enter the frontier (rules in crawler/scope/rules.py)."""
