"""cupy_backends.cuda: its api subpackage forwards to cuarray.cuda."""
