"""partial"""
