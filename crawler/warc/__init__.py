"""WARC/1.1 archives of a crawl (docs/operations.md): a rotating writer and the readers
behind `scrapy warc list|check`. Plain code, no Scrapy imports; the extension that feeds
the writer is crawler/extensions/warc_archive.py."""

from crawler.warc.files import WarcDirError, check_warc_dir
from crawler.warc.writer import Exchange, RotatingWarcWriter

__all__ = ["Exchange", "RotatingWarcWriter", "WarcDirError", "check_warc_dir"]
