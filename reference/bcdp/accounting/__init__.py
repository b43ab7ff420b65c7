"""accounting"""
