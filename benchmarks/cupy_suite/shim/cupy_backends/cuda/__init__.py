"""cupy_backends.cuda: its api subpackage forwards to cuarray.cuda, its stream module to cuarray.cuda.stream."""
