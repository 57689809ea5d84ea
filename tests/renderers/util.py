"""Helpers for the renderer tests: decode PNG bytes, read pixels, compare colours."""

from __future__ import annotations

import io
import struct
import zlib

from PIL import Image

from renderers.theme import RGB


def decode(data: bytes) -> Image.Image:
    """The PNG as an RGB image (after checking it is a real, complete PNG)."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    image = Image.open(io.BytesIO(data))
    image.load()
    assert image.format == "PNG"
    return image.convert("RGB")


def chunks(data: bytes) -> list[str]:
    """The PNG's chunk types in order (after checking each chunk's CRC with zlib's,
    which Pillow's reader does not do for the image data)."""
    types = []
    pos = 8
    while pos < len(data):
        (length,) = struct.unpack(">I", data[pos : pos + 4])
        kind_and_data = data[pos + 4 : pos + 8 + length]
        (crc,) = struct.unpack(">I", data[pos + 8 + length : pos + 12 + length])
        assert crc == zlib.crc32(kind_and_data), kind_and_data[:4]
        types.append(kind_and_data[:4].decode("ascii"))
        pos += 12 + length
    return types


def near(a: RGB, b: RGB, tol: int = 6) -> bool:
    return all(abs(x - y) <= tol for x, y in zip(a, b, strict=True))


def count(image: Image.Image, box: tuple[int, int, int, int], colour: RGB, tol: int = 6) -> int:
    """Pixels of ``colour`` (within ``tol``) in ``box``."""
    region = image.crop(box)
    colours = region.getcolors(maxcolors=region.width * region.height + 1) or []
    return sum(n for n, px in colours if near(px, colour, tol))


def only(image: Image.Image, box: tuple[int, int, int, int], colour: RGB) -> bool:
    """Whether every pixel in ``box`` is exactly ``colour``."""
    region = image.crop(box)
    return region.getcolors(1) is not None and region.getcolors(1)[0][1] == colour


def at_phone_width(data: bytes, width: int = 400) -> tuple[Image.Image, float]:
    """The PNG scaled to ``width`` px as a phone shows it, and the scale applied."""
    image = decode(data)
    scale = width / image.width
    return image.resize((width, round(image.height * scale)), Image.Resampling.LANCZOS), scale


def ink_height(image: Image.Image, box: tuple[int, int, int, int]) -> int:
    """Height in px of the glyphs in ``box``: rows holding a pixel at least half as far
    from the box's commonest colour (its background) as its farthest pixel."""
    region = image.crop(box)
    colours = region.getcolors(maxcolors=region.width * region.height + 1) or []
    background = max(colours)[1]

    def far(px: RGB) -> int:
        return sum(abs(a - b) for a, b in zip(px, background, strict=True))

    reach = max(far(px) for _, px in colours)
    rows = [
        y
        for y in range(region.height)
        if any(far(region.getpixel((x, y))) * 2 >= reach for x in range(region.width))  # type: ignore[arg-type]
    ]
    return rows[-1] - rows[0] + 1 if rows and reach else 0
