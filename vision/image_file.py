"""A photo given as a file (``camelup vision read`` and ``calibrate``): loaded in colour, or refused with a
message naming what is wrong with it (no such file, a folder, an empty or cut-short file, not an image), and
the check that a picture has colour at all (a greyscale photo cannot tell the camels apart)."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np

COLOURLESS = "the picture has no colour (greyscale): the camera needs colour to tell the camels apart"
GREY_SPREAD = 6
"""A pixel whose channels differ by at most this much is grey: a greyscale picture saved as colour JPEG
decodes to channels within a level or two of each other (its colour planes are flat), while a photo of the
board, even a dim one, has the sand's and the camels' colours."""
COLOURED_SHARE = 0.002
"""A picture with fewer coloured pixels than this share has no colour worth reading (a few pixels of noise or
a coloured border are not a board)."""
DETAIL = 40
"""A greyscale photo of the table spans more than this many grey levels (2nd to 98th percentile); a picture of
nothing does not."""

_JPEG_MARKER = re.compile(rb"\xff[^\x00\xd0-\xd7\xff]")
"""Where a JPEG's entropy-coded data ends: a marker (0xFF then neither a stuffed 0x00, a restart marker, nor
more fill bytes)."""


class PhotoError(ValueError):
    """A photo file the commands cannot use; the message names the file and what is wrong."""


def load_photo(path: str) -> np.ndarray:
    """The picture in ``path`` as BGR (a greyscale file gives three equal channels, see :func:`colourless`).

    Raises:
        PhotoError: no such file, a folder, an empty file, a JPEG cut short, or not an image OpenCV can read.
    """
    import cv2

    if not path:
        raise PhotoError("no image file given (an empty name)")
    file = Path(path)
    shown = path
    if file.is_dir():
        raise PhotoError(f"{shown}: a folder, not an image file")
    if not file.is_file():
        raise PhotoError(f"{shown}: no such image file")
    try:
        data = file.read_bytes()
    except OSError as error:
        raise PhotoError(f"{shown}: cannot be read ({error.strerror})") from None
    if not data:
        raise PhotoError(f"{shown}: an empty file, not an image")
    if jpeg_cut_short(data):
        # OpenCV would read it, with the missing part grey: say so rather than "board not found".
        raise PhotoError(f"{shown}: the JPEG is cut short (an incomplete copy or download): copy the picture again")
    if data.startswith(b"\x89PNG\r\n\x1a\n") and b"IEND" not in data:  # its last chunk never came
        # Said before decoding: libpng would print its own error on stderr first.
        raise PhotoError(f"{shown}: the PNG is cut short (an incomplete copy or download): copy the picture again")
    try:
        image = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
    except cv2.error as error:  # OpenCV refuses by assertion, e.g. a picture of more than 2^30 pixels
        if "CV_IO_MAX_IMAGE_PIXELS" in str(error):
            raise PhotoError(f"{shown}: a picture too large to read (more than {2**30:,} pixels)") from None
        raise PhotoError(f"{shown}: not an image OpenCV can read ({str(error).strip().splitlines()[-1]})") from None
    if image is None:
        raise PhotoError(f"{shown}: not an image OpenCV can read")
    return image


def jpeg_cut_short(data: bytes) -> bool:
    """Whether ``data`` is a JPEG whose file ends before its end-of-image marker (anything but a JPEG: False).
    Walks the segments to the first image's end, so data a phone appends after it (a motion photo) is fine."""
    if not data.startswith(b"\xff\xd8"):
        return False
    at, end = 2, len(data)
    while at < end:
        if data[at] != 0xFF:
            return False  # not a structure this walk understands: OpenCV decides
        while at < end and data[at] == 0xFF:  # fill bytes before a marker
            at += 1
        if at >= end:
            return True
        marker = data[at]
        at += 1
        if marker == 0xD9:  # end of image
            return False
        if 0xD0 <= marker <= 0xD7 or marker == 0x01:  # markers without a length
            continue
        if at + 2 > end:
            return True
        at += int.from_bytes(data[at : at + 2], "big")
        if marker == 0xDA:  # start of scan: entropy-coded data up to the next marker
            found = _JPEG_MARKER.search(data, at)
            if found is None:
                return True
            at = found.start()
    return True


def colourless(image: np.ndarray) -> bool:
    """Whether a BGR picture is a greyscale photo: grey all over (a greyscale file, or a colour file whose channels
    are equal up to JPEG's rounding) yet showing something. A picture of nothing (black with the lens covered,
    white when overexposed) is not called greyscale: there the board is simply not found."""
    step = max(1, int(np.ceil(np.sqrt(image.shape[0] * image.shape[1] / 100_000))))  # 100 000 pixels at most
    sample = image[::step, ::step].astype(np.int16)
    if sample.ndim == 3 and sample.shape[2] >= 3:
        spread = sample[:, :, :3].max(axis=2) - sample[:, :, :3].min(axis=2)
        if np.count_nonzero(spread > GREY_SPREAD) >= COLOURED_SHARE * spread.size:
            return False
        sample = sample[:, :, :3].mean(axis=2)
    low, high = np.percentile(sample, [2, 98])
    return float(high - low) > DETAIL
