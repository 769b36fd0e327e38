"""What a screenshot shows, checked against where the actor tree puts things."""

from common import Failure, say


def dominant_colour(pixbuf, box, inset=6):
    """The most frequent colour (to 4 bits a channel) inside box, and its share."""
    x0, y0 = int(box["x"]) + inset, int(box["y"]) + inset
    x1, y1 = int(box["x"] + box["w"]) - inset, int(box["y"] + box["h"]) - inset
    channels, stride, data = pixbuf.get_n_channels(), pixbuf.get_rowstride(), pixbuf.get_pixels()
    counts, total = {}, 0
    for y in range(y0, y1):
        row = y * stride
        for x in range(x0, x1):
            i = row + x * channels
            key = (data[i] >> 4, data[i + 1] >> 4, data[i + 2] >> 4)
            counts[key] = counts.get(key, 0) + 1
            total += 1
    key, count = max(counts.items(), key=lambda kv: kv[1])
    return tuple(c * 16 + 8 for c in key), count / max(total, 1)


def distinct_pixels(pixbuf, box, colour, tolerance=48):
    """How many pixels in box are far from colour (text, icon strokes)."""
    x0, y0 = int(box["x"]), int(box["y"])
    x1, y1 = int(box["x"] + box["w"]), int(box["y"] + box["h"])
    channels, stride, data = pixbuf.get_n_channels(), pixbuf.get_rowstride(), pixbuf.get_pixels()
    n = 0
    for y in range(y0, y1):
        for x in range(x0, x1):
            i = y * stride + x * channels
            if max(abs(data[i + c] - colour[c]) for c in range(3)) > tolerance:
                n += 1
    return n


def shows(pixbuf, what, box, text_box, background):
    """The screenshot has background where the actor tree says `what` is, and
    something drawn (its name) where its text is."""
    expected = background[:3]
    colour, share = dominant_colour(pixbuf, box)
    close = max(abs(colour[c] - expected[c]) for c in range(3)) <= 16
    drawn = distinct_pixels(pixbuf, text_box, expected)
    if not close or share < 0.5 or drawn < 40:
        raise Failure(
            f"the screenshot does not show {what} at {box}: its most common colour is {colour} "
            f"({share:.0%}), the background should be {expected}; {drawn} pixels drawn on its text at {text_box}"
        )
    return f"{what} at {box} in its background {colour} ({share:.0%}), {drawn} pixels of text"


def shows_toggle(pixbuf, state):
    return shows(pixbuf, "the toggle", state["backgroundBox"], state["labelBox"], state["background"])


def shows_menu(pixbuf, state):
    return shows(pixbuf, "the toggle's menu", state["menuBox"], state["menuTitleBox"], state["menuBackground"])


def save_readme_picture(pixbuf, box, path, margin=12):
    """The open Quick Settings and nothing else (the panel shows the test's
    unsafe-mode indicator)."""
    x = max(int(box["x"]) - margin, 0)
    y = int(box["y"])  # the box pointer's own padding is the margin above
    w = min(int(box["w"]) + 2 * margin, pixbuf.get_width() - x)
    h = min(int(box["h"]) + margin, pixbuf.get_height() - y)
    pixbuf.new_subpixbuf(x, y, w, h).savev(path, "png", [], [])
    say(f"     README picture: {path} ({w}x{h})")
