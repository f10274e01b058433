"""Cards as pictures: hands, the trick on the table and laid melds as PNG bytes with alt text.

Plain data in (card text such as ``"10♠"``, ``"10S"`` or ``str(card)``; names; numbers), a
``Rendered(png, alt_text)`` out. Renders are cached per exact input; call them through
``render_off_loop`` from async code, which draws them in a worker process (``offloop``), so the
event loop never waits on Pillow nor competes with it for the GIL::

    rendered = await render_off_loop(render_hand, view["hand"], legal=playable, four_colour=True)
    file = discord.File(io.BytesIO(rendered.png), "hand.png", description=rendered.alt_text)
"""

from bot.pictures.alt import ATTACHMENT_DESCRIPTION_LIMIT
from bot.pictures.melds import MeldGroup, SeatMelds
from bot.pictures.offloop import clear_render_cache, render_off_loop, start_render_pool, stop_render_pool
from bot.pictures.scenes import Rendered, render_hand, render_melds, render_trick

__all__ = [
    "ATTACHMENT_DESCRIPTION_LIMIT",
    "MeldGroup",
    "Rendered",
    "SeatMelds",
    "clear_render_cache",
    "render_hand",
    "render_melds",
    "render_off_loop",
    "render_trick",
    "start_render_pool",
    "stop_render_pool",
]
