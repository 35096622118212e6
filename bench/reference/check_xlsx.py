"""Reference check that engine/data writeXlsx output opens in openpyxl.

Usage: python3 bench/reference/check_xlsx.py OUT.xlsx  (prints row count, header, first data row)
"""
import sys
import openpyxl

wb = openpyxl.load_workbook(sys.argv[1], read_only=True)
rows = list(wb.active.iter_rows(values_only=True))
print(len(rows), rows[0], rows[1] if len(rows) > 1 else None)
