"""``/help``: what Trick Night does, how a turn works, and the commands (read from the command
tree, so the list never drifts from what is registered)."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord_ui import is_admin, limits, reply

ABOUT = (
    "Trick Night runs **Pinochle** and **Pitch** tables in this server: open a table in a channel, "
    "friends join, computer players fill the empty seats, and you play to the end without leaving "
    "Discord. Your cards are only ever shown to you; the channel sees the bids, tricks, melds and "
    "scores. Finished games count for `/leaderboard` and `/stats`."
)
TURN = (
    "1. `/table new game:…` opens a lobby (in a thread of its own where the server allows); **Join** or "
    "choose your seat (and so your partner), **Add computer**, then the host presses **Start**.\n"
    "2. When the game waits for you, you are mentioned. Click **Show my hand** on the table message "
    "(or use `/hand`): your cards and exactly the choices you have now, seen only by you.\n"
    "3. Click a card, a bid or a choice. Long bid ladders offer the next bid, +10, +50 and "
    "**Other bid…** to type any amount.\n"
    "4. **Declare out**, **Concede**, **Throw in**, leaving a running game and ending a table ask "
    "you to confirm first and say what will happen.\n"
    "5. A turn timer (set by the admins) lets a computer play for someone away until they click "
    "**Take my seat back**."
)


def command_lines(tree: app_commands.CommandTree[discord.Client], *, admin: bool) -> list[str]:
    """One line per slash command (subcommands listed under their group's name)."""
    lines: list[str] = []
    for command in sorted(tree.get_commands(), key=lambda c: c.name):
        if not isinstance(command, app_commands.Command | app_commands.Group):
            continue
        perms = command.default_permissions
        if perms is not None and perms.value and not admin:
            continue  # what Discord hides from this person is not listed either
        if isinstance(command, app_commands.Group):
            lines.extend(
                f"`/{command.name} {sub.name}` — {sub.description}"
                for sub in command.commands
                if isinstance(sub, app_commands.Command)
            )
        else:
            lines.append(f"`/{command.name}` — {command.description}")
    return lines


class HelpCog(commands.Cog):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @app_commands.command(name="help", description="What Trick Night does, how a turn works, the commands")
    async def help(self, interaction: discord.Interaction) -> None:
        embed = discord.Embed(
            title="Trick Night — help", description=ABOUT, colour=discord.Colour.dark_green()
        )
        commands_text = "\n".join(command_lines(self.bot.tree, admin=is_admin(interaction)))
        limits.add_fields(embed, [("How a turn works", TURN), ("Commands", commands_text)])
        embed.set_footer(text="/rules game:… shows a game's rules and house rules.")
        await reply(interaction, None, embed=embed)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(HelpCog(bot))
