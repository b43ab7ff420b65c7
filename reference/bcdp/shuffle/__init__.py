"""shuffle"""
