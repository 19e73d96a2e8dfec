"""iter_lines: NDJSON records as a generator, parsed off the GIL."""
import queue
import threading

from . import _tyjson

_END = object()


def iter_lines(source, type=None, threads=1, *, allow_nan=False, batch=1024):
    """Yields the records of NDJSON `source` in input order.

    source   bytes-like (read in place), a path (str or os.PathLike), or a
             binary file object (read with readinto)
    type     None: plain Python objects as loads gives them; a type: each
             record is checked and built as tyjson.decode does (a
             ValidationError names the line: "line 7: $.age")
    threads  worker threads parsing the records (1: parse on one thread)

    Blank lines are skipped. A bad line raises tyjson.JSONDecodeError after
    the records before it, with lineno (the line in the input), colno and
    pos (the byte offset in the whole input). The parsing runs on a helper
    thread with the GIL released; at most a few batches are held ahead of
    the consumer. Closing the generator early stops the reading.
    """
    q = queue.Queue(maxsize=4)
    stop = threading.Event()

    def sink(item):
        # called by _lines_run with a list of records or an error;
        # returns True to stop the run when the consumer went away
        while not stop.is_set():
            try:
                q.put(item, timeout=0.05)
                return False
            except queue.Full:
                continue
        return True

    def produce():
        try:
            _tyjson._lines_run(source, threads, sink, batch, allow_nan=allow_nan)
        except BaseException as e:  # handed to the consumer, raised there
            sink(e)
        sink(_END)

    if type is not None:
        from ._typed import decoder_for
        convert = decoder_for(type)
    else:
        convert = None
    t = threading.Thread(target=produce, name="tyjson-iter-lines", daemon=True)
    t.start()
    try:
        while True:
            item = q.get()
            if item is _END:
                break
            if isinstance(item, BaseException):
                raise item
            if convert is None:
                yield from item
            else:
                yield from map(convert, item)
    finally:
        stop.set()
        t.join()
