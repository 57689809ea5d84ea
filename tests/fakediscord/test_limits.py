"""Every limit the fake enforces: the bad payload is refused as Discord refuses it, and the
payload just inside the limit passes. Driven through the real discord.py client wherever
discord.py lets the bad payload through; where discord.py itself refuses it first, the
payload is sent raw (still over HTTP, through discord.py's transport where the route is
authenticated).
"""

from __future__ import annotations

import io
from collections.abc import Callable
from typing import Any

import aiohttp
import discord
import pytest
from discord import app_commands
from discord.ext.commands import Bot
from discord.http import Route

from fakediscord import FakeDiscord, Limits, UserDriver, World, leaf_codes
from fakediscord.harness import RunningBot
from fakediscord.state import Interaction
from tests.fakediscord.democog import DemoCog


@pytest.fixture
async def rb(fake_discord: FakeDiscord, world: World, bot_client) -> RunningBot:
    return await bot_client(cogs=[DemoCog])


def cog_of(rb: RunningBot) -> DemoCog:
    assert isinstance(rb.client, Bot)
    cog = rb.client.get_cog("DemoCog")
    assert isinstance(cog, DemoCog)
    return cog


def assert_form_error(exc: discord.HTTPException, path: str, code: str) -> None:
    """400/50035 with ``code`` at ``path`` of the nested errors tree."""
    assert exc.status == 400 and exc.code == 50035, (exc.status, exc.code, exc.text)
    tree = exc._errors  # what discord.py parsed from the body
    assert tree is not None
    assert code in leaf_codes(tree).get(path, []), leaf_codes(tree)


async def rejects(coro: Any, path: str, code: str) -> discord.HTTPException:
    with pytest.raises(discord.HTTPException) as info:
        await coro
    assert_form_error(info.value, path, code)
    return info.value


def raw_send(rb: RunningBot, channel_id: int, payload: dict[str, Any]) -> Any:
    """POST a message payload discord.py's helpers would refuse to build."""
    route = Route("POST", "/channels/{channel_id}/messages", channel_id=channel_id)
    return rb.client.http.request(route, json=payload)


def button(custom_id: str, label: str = "b") -> dict[str, Any]:
    return {"type": 2, "style": 1, "custom_id": custom_id, "label": label}


def row(*components: dict[str, Any]) -> dict[str, Any]:
    return {"type": 1, "components": list(components)}


def options(n: int) -> list[discord.SelectOption]:
    return [discord.SelectOption(label=f"o{i}", value=f"v{i}") for i in range(n)]


def view_with(*items: discord.ui.Item[Any]) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for item in items:
        view.add_item(item)
    return view


# ------------------------------------------------------------------ message content and embeds
async def test_content_2000(rb: RunningBot, world: World) -> None:
    channel = rb.channel(world.general)
    exc = await rejects(channel.send("x" * 2001), "content", "BASE_TYPE_MAX_LENGTH")
    assert "In content: Must be 2000 or fewer in length." in exc.text
    assert (await channel.send("x" * 2000)).content == "x" * 2000


async def test_empty_message_50006(rb: RunningBot, world: World) -> None:
    channel = rb.channel(world.general)
    with pytest.raises(discord.HTTPException) as info:
        await channel.send(view=view_with(discord.ui.Button(label="b", custom_id="b")))
    assert (info.value.status, info.value.code) == (400, 50006)
    assert info.value.text == "Cannot send an empty message"
    await channel.send("content", view=view_with(discord.ui.Button(label="b", custom_id="b")))


EMBED_CASES: list[tuple[str, Callable[[int], discord.Embed], int, str]] = [
    ("title", lambda n: discord.Embed(title="t" * n), Limits.EMBED_TITLE, "embeds.0.title"),
    (
        "description",
        lambda n: discord.Embed(description="d" * n),
        Limits.EMBED_DESCRIPTION,
        "embeds.0.description",
    ),
    (
        "footer",
        lambda n: discord.Embed(title="t").set_footer(text="f" * n),
        Limits.EMBED_FOOTER,
        "embeds.0.footer.text",
    ),
    (
        "author",
        lambda n: discord.Embed(title="t").set_author(name="a" * n),
        Limits.EMBED_AUTHOR,
        "embeds.0.author.name",
    ),
    (
        "field name",
        lambda n: discord.Embed().add_field(name="n" * n, value="v"),
        Limits.EMBED_FIELD_NAME,
        "embeds.0.fields.0.name",
    ),
    (
        "field value",
        lambda n: discord.Embed().add_field(name="n", value="v" * n),
        Limits.EMBED_FIELD_VALUE,
        "embeds.0.fields.0.value",
    ),
]


@pytest.mark.parametrize(
    ("what", "build", "limit", "path"), EMBED_CASES, ids=[c[0] for c in EMBED_CASES]
)
async def test_embed_field_lengths(
    rb: RunningBot,
    world: World,
    what: str,
    build: Callable[[int], discord.Embed],
    limit: int,
    path: str,
) -> None:
    channel = rb.channel(world.general)
    await rejects(
        channel.send(embed=build(limit + 1)),
        path,
        "BASE_TYPE_MAX_LENGTH" if what in ("title", "description") else "BASE_TYPE_BAD_LENGTH",
    )
    await channel.send(embed=build(limit))


async def test_embed_25_fields_10_embeds_6000_total(rb: RunningBot, world: World) -> None:
    channel = rb.channel(world.general)
    many = discord.Embed()
    for i in range(26):
        many.add_field(name=str(i), value="v")
    await rejects(channel.send(embed=many), "embeds.0.fields", "BASE_TYPE_MAX_LENGTH")
    many.remove_field(25)
    await channel.send(embed=many)

    # discord.py refuses an 11th embed itself, so this one goes raw.
    eleven = {"embeds": [{"title": str(i)} for i in range(11)]}
    await rejects(raw_send(rb, world.general.id, eleven), "embeds", "BASE_TYPE_MAX_LENGTH")
    await channel.send(embeds=[discord.Embed(title=str(i)) for i in range(10)])

    big = [discord.Embed(description="a" * 4000), discord.Embed(description="b" * 2001)]
    await rejects(channel.send(embeds=big), "embeds", "MAX_EMBED_SIZE_EXCEEDED")
    big[1].description = "b" * 2000
    await channel.send(embeds=big)


# ------------------------------------------------------------------ components
async def test_select_max_values_above_option_count(rb: RunningBot, world: World) -> None:
    """The issue's example: SimCord accepted it, Discord does not."""
    channel = rb.channel(world.general)
    select = discord.ui.Select(custom_id="s", options=options(2), max_values=3)
    exc = await rejects(
        channel.send("pick", view=view_with(select)),
        "components.0.components.0.options",
        "BASE_TYPE_MIN_LENGTH",
    )
    assert "Must be 3 or more in length." in exc.text
    select.max_values = 2
    await channel.send("pick", view=view_with(select))


async def test_select_limits(rb: RunningBot, world: World) -> None:
    channel = rb.channel(world.general)
    path = "components.0.components.0"
    cases: list[tuple[dict[str, Any], dict[str, Any], str, str]] = [
        ({"options": options(26)}, {"options": options(25)}, "options", "BASE_TYPE_BAD_LENGTH"),
        (
            {"options": options(1), "placeholder": "p" * 151},
            {"options": options(1), "placeholder": "p" * 150},
            "placeholder",
            "BASE_TYPE_MAX_LENGTH",
        ),
        (
            {"options": [discord.SelectOption(label="l" * 101, value="v")]},
            {"options": [discord.SelectOption(label="l" * 100, value="v")]},
            "options.0.label",
            "BASE_TYPE_BAD_LENGTH",
        ),
        (
            {"options": [discord.SelectOption(label="l", value="v" * 101)]},
            {"options": [discord.SelectOption(label="l", value="v" * 100)]},
            "options.0.value",
            "BASE_TYPE_BAD_LENGTH",
        ),
        (
            {"options": [discord.SelectOption(label="l", value="v", description="d" * 101)]},
            {"options": [discord.SelectOption(label="l", value="v", description="d" * 100)]},
            "options.0.description",
            "BASE_TYPE_MAX_LENGTH",
        ),
        (
            {"options": options(25), "max_values": 26},
            {"options": options(25), "max_values": 25},
            "max_values",
            "NUMBER_TYPE_MAX",
        ),
        (
            {"options": options(3), "min_values": 3, "max_values": 2},
            {"options": options(3), "min_values": 2, "max_values": 2},
            "min_values",
            "NUMBER_TYPE_MAX",
        ),
        (
            {
                "options": [
                    discord.SelectOption(label="a", value="v"),
                    discord.SelectOption(label="b", value="v"),
                ]
            },
            {"options": options(2)},
            "options.1.value",
            "SELECT_COMPONENT_OPTION_VALUE_DUPLICATED",
        ),
    ]
    for bad, good, leaf, code in cases:
        await rejects(
            channel.send("s", view=view_with(discord.ui.Select(custom_id="s", **bad))),
            f"{path}.{leaf}",
            code,
        )
        await channel.send("s", view=view_with(discord.ui.Select(custom_id="s", **good)))


async def test_button_label_custom_id_and_uniqueness(rb: RunningBot, world: World) -> None:
    channel = rb.channel(world.general)
    b0 = "components.0.components.0"
    await rejects(
        channel.send("b", view=view_with(discord.ui.Button(label="l" * 81, custom_id="c"))),
        f"{b0}.label",
        "BASE_TYPE_MAX_LENGTH",
    )
    await channel.send("b", view=view_with(discord.ui.Button(label="l" * 80, custom_id="c")))
    await rejects(
        channel.send("b", view=view_with(discord.ui.Button(label="l", custom_id="c" * 101))),
        f"{b0}.custom_id",
        "BASE_TYPE_BAD_LENGTH",
    )
    await channel.send("b", view=view_with(discord.ui.Button(label="l", custom_id="c" * 100)))
    await rejects(
        raw_send(
            rb,
            world.general.id,
            {
                "content": "b",
                "components": [row({"type": 2, "style": 1, "custom_id": "", "label": "l"})],
            },
        ),
        f"{b0}.custom_id",
        "BASE_TYPE_BAD_LENGTH",
    )
    twins = view_with(
        discord.ui.Button(label="a", custom_id="same"),
        discord.ui.Button(label="b", custom_id="same", row=1),
    )
    await rejects(
        channel.send("b", view=twins),
        "components.1.components.0.custom_id",
        "COMPONENT_CUSTOM_ID_DUPLICATED",
    )
    await channel.send(
        "b",
        view=view_with(
            discord.ui.Button(label="a", custom_id="one"),
            discord.ui.Button(label="b", custom_id="two", row=1),
        ),
    )


async def test_rows_and_row_width(rb: RunningBot, world: World) -> None:
    """discord.py's View already refuses these layouts, so the payloads go raw."""
    gid = world.general.id
    six_rows = [row(button(f"r{i}")) for i in range(6)]
    await rejects(
        raw_send(rb, gid, {"content": "x", "components": six_rows}),
        "components",
        "BASE_TYPE_MAX_LENGTH",
    )
    await raw_send(rb, gid, {"content": "x", "components": six_rows[:5]})
    six_buttons = row(*(button(f"b{i}") for i in range(6)))
    await rejects(
        raw_send(rb, gid, {"content": "x", "components": [six_buttons]}),
        "components.0.components",
        "BASE_TYPE_BAD_LENGTH",
    )
    five = row(*(button(f"b{i}") for i in range(5)))
    await raw_send(rb, gid, {"content": "x", "components": [five]})
    select = {"type": 3, "custom_id": "s", "options": [{"label": "a", "value": "a"}]}
    await rejects(
        raw_send(rb, gid, {"content": "x", "components": [row(select, button("b"))]}),
        "components.0.components.1",
        "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
    )
    await raw_send(rb, gid, {"content": "x", "components": [row(select), row(button("b"))]})


async def test_message_edit_is_validated(rb: RunningBot, world: World) -> None:
    message = await rb.channel(world.general).send("hello")
    await rejects(message.edit(content="x" * 2001), "content", "BASE_TYPE_MAX_LENGTH")
    edited = await message.edit(
        content="bye", view=view_with(discord.ui.Button(label="ok", custom_id="ok"))
    )
    assert edited.content == "bye"
    with pytest.raises(discord.HTTPException) as info:
        await message.edit(content="")  # nothing left to show
    assert info.value.code == 50006


# ------------------------------------------------------------------ files
async def test_file_sizes(fake_discord: FakeDiscord, rb: RunningBot, world: World) -> None:
    channel = rb.channel(world.general)

    def blob(n: int, name: str = "f.bin") -> discord.File:
        return discord.File(io.BytesIO(b"\0" * n), name)

    with pytest.raises(discord.HTTPException) as info:
        await channel.send(file=blob(Limits.FILE_SIZE + 1))
    assert (info.value.status, info.value.code) == (413, 40005)
    with pytest.raises(discord.HTTPException) as info:
        await channel.send(files=[blob(9 * 1024 * 1024, f"{i}.bin") for i in range(3)])
    assert (info.value.status, info.value.code) == (413, 40005)
    sent = await channel.send(file=blob(Limits.FILE_SIZE))
    assert sent.attachments[0].size == Limits.FILE_SIZE
    assert fake_discord.files()[-1].size == Limits.FILE_SIZE
    assert await sent.attachments[0].read() == b"\0" * Limits.FILE_SIZE  # served back


async def test_files_come_back_byte_for_byte_whatever_they_hold(
    fake_discord: FakeDiscord, rb: RunningBot, world: World
) -> None:
    """The fake splits a multipart body on its boundary in one pass: bytes that look
    like a part's end, headers or a boundary, and names with quotes, must survive."""
    channel = rb.channel(world.general)
    tricky = b"\r\n--\r\n\r\nContent-Disposition: form-data\r\n\r\n--x--\r\n"
    files = [
        discord.File(io.BytesIO(tricky), "a.bin"),
        discord.File(io.BytesIO(b""), 'say "hi".txt'),
        discord.File(io.BytesIO(tricky * 3 + b"\r\n"), "c.bin"),
    ]
    sent = await channel.send(content="three files", files=files)
    assert sent.content == "three files"
    assert [a.filename for a in sent.attachments] == ["a.bin", 'say "hi".txt', "c.bin"]
    assert [await a.read() for a in sent.attachments] == [tricky, b"", tricky * 3 + b"\r\n"]
    assert [f.data for f in fake_discord.files()[-3:]] == [tricky, b"", tricky * 3 + b"\r\n"]


async def test_an_enforced_nonce_gives_back_the_message_it_made(
    fake_discord: FakeDiscord, rb: RunningBot, world: World
) -> None:
    """Discord: with ``enforce_nonce`` (discord.py sets it with any nonce), "if another
    message was created by the same author with the same nonce, that message will be
    returned and no new message will be created" (in the past few minutes)."""
    channel = rb.channel(world.general)
    first = await channel.send("one", nonce="sj1h1table.0")
    again = await channel.send("two", nonce="sj1h1table.0")
    assert again.id == first.id and again.content == "one"
    other = await channel.send("three", nonce="sj1h1table.1")
    assert other.id != first.id
    await first.delete()
    anew = await channel.send("four", nonce="sj1h1table.0")  # the first is gone
    assert anew.id not in (first.id, other.id) and anew.content == "four"
    assert [m.content for m in fake_discord.channel_messages(world.general)] == ["three", "four"]


# ------------------------------------------------------------------ application commands
def sync_error(rb: RunningBot, *commands: app_commands.Command[Any, ..., Any]) -> Any:
    assert isinstance(rb.client, Bot)
    tree = rb.client.tree
    tree.clear_commands(guild=None)
    for cmd in commands:
        tree.add_command(cmd)
    return tree.sync()


def command(
    name: str = "probe", description: str = "d", **params: Any
) -> app_commands.Command[Any, ..., Any]:
    async def callback(interaction: discord.Interaction, choice: str = "a") -> None:
        await interaction.response.send_message("ok")

    return app_commands.Command(name=name, description=description, callback=callback)


async def test_command_description_and_choices(rb: RunningBot) -> None:
    await rejects(
        sync_error(rb, command(description="d" * 101)), "0.description", "BASE_TYPE_BAD_LENGTH"
    )
    await sync_error(rb, command(description="d" * 100))

    def with_choices(n: int) -> app_commands.Command[Any, ..., Any]:
        cmd = command()
        cmd._params["choice"].choices = [
            app_commands.Choice(name=f"c{i}", value=f"c{i}") for i in range(n)
        ]
        return cmd

    await rejects(sync_error(rb, with_choices(26)), "0.options.0.choices", "BASE_TYPE_MAX_LENGTH")
    await sync_error(rb, with_choices(25))


async def raw_put_commands(rb: RunningBot, body: list[dict[str, Any]]) -> Any:
    app_id = rb.client.application_id
    route = Route("PUT", "/applications/{application_id}/commands", application_id=app_id)
    return await rb.client.http.request(route, json=body)


def string_option(name: str, **extra: Any) -> dict[str, Any]:
    return {"type": 3, "name": name, "description": "d"} | extra


async def test_command_name_options_size_and_count(
    fake_discord: FakeDiscord, rb: RunningBot
) -> None:
    """discord.py validates these client-side; the fake must still refuse them."""
    await rejects(
        raw_put_commands(rb, [{"name": "Bad Name", "description": "d"}]),
        "0.name",
        "APPLICATION_COMMAND_INVALID_NAME",
    )
    await raw_put_commands(rb, [{"name": "good-name_2", "description": "d"}])

    too_many = [string_option(f"o{i}") for i in range(26)]
    await rejects(
        raw_put_commands(rb, [{"name": "c", "description": "d", "options": too_many}]),
        "0.options",
        "BASE_TYPE_MAX_LENGTH",
    )
    await raw_put_commands(rb, [{"name": "c", "description": "d", "options": too_many[:25]}])

    def fat(choice_len: int) -> dict[str, Any]:
        choices = [
            {
                "name": f"{i:02d}" + "n" * (choice_len - 2),
                "value": f"{i:02d}" + "v" * (choice_len - 2),
            }
            for i in range(20)
        ]
        return {
            "name": "fat",
            "description": "d",
            "options": [string_option(f"o{j}", choices=choices) for j in range(2)],
        }

    assert limits_size(fat(100)) > Limits.COMMAND_TOTAL_SIZE
    exc = await rejects(raw_put_commands(rb, [fat(100)]), "0", "APPLICATION_COMMAND_TOO_LARGE")
    assert "Command exceeds maximum size (8000)" in exc.text
    assert limits_size(fat(99)) <= Limits.COMMAND_TOTAL_SIZE
    await raw_put_commands(rb, [fat(99)])

    hundred = [{"name": f"c{i}", "description": "d"} for i in range(101)]
    await rejects(raw_put_commands(rb, hundred), "", "BASE_TYPE_MAX_LENGTH")
    await raw_put_commands(rb, hundred[:100])
    # Creating a 101st one by POST: 30032.
    app_id = rb.client.application_id
    route = Route("POST", "/applications/{application_id}/commands", application_id=app_id)
    with pytest.raises(discord.HTTPException) as info:
        await rb.client.http.request(route, json={"name": "extra", "description": "d"})
    assert (info.value.status, info.value.code) == (400, 30032)


def limits_size(command: dict[str, Any]) -> int:
    from fakediscord.limits import command_size

    return command_size(command)


async def test_command_structure_rules(rb: RunningBot) -> None:
    bad_order = {
        "name": "c",
        "description": "d",
        "options": [string_option("a"), string_option("b", required=True)],
    }
    await rejects(
        raw_put_commands(rb, [bad_order]),
        "0.options.1.required",
        "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID",
    )
    twice = [{"name": "c", "description": "d"}, {"name": "c", "description": "e"}]
    await rejects(raw_put_commands(rb, twice), "1.name", "APPLICATION_COMMANDS_DUPLICATE_NAME")
    group = {
        "name": "g",
        "description": "d",
        "options": [
            {
                "type": 2,
                "name": "grp",
                "description": "d",
                "options": [
                    {"type": 1, "name": "sub", "description": "d", "options": [string_option("x")]}
                ],
            }
        ],
    }
    await raw_put_commands(rb, [group])


# ------------------------------------------------------------------ interaction responses
async def test_autocomplete_25_choices(
    fake_discord: FakeDiscord, world: World, driver: UserDriver, rb: RunningBot
) -> None:
    cog_of(rb).autocomplete_count = 26
    handle = driver.autocomplete("demo start", world.alice, world.general, focused="mode")
    status, body = await handle.wait_error()
    assert (status, body["code"]) == (400, 50035)
    assert leaf_codes(body["errors"]) == {"data.choices": ["BASE_TYPE_MAX_LENGTH"]}
    assert not handle.acked
    cog_of(rb).autocomplete_count = 25
    ok = await driver.autocomplete("demo start", world.alice, world.general, focused="mode")
    assert ok.choices is not None and len(ok.choices) == 25


async def test_modal_title_45(world: World, driver: UserDriver, rb: RunningBot) -> None:
    cog = cog_of(rb)
    cog.modal_title = "t" * 46
    handle = driver.send_slash("demo modal", world.alice, world.general)
    status, body = await handle.wait_error()
    assert (status, body["code"]) == (400, 50035)
    assert leaf_codes(body["errors"]) == {"data.title": ["BASE_TYPE_BAD_LENGTH"]}
    cog.modal_title = "t" * 45
    opened = await driver.send_slash("demo modal", world.alice, world.general)
    assert opened.modal is not None and opened.modal["title"] == "t" * 45


def orphan(fake: FakeDiscord, world: World) -> Interaction:
    """An interaction the bot ignores (unknown custom_id), for raw callbacks."""
    msg = fake.channel_messages(world.general)[-1]
    return fake.new_interaction(
        type=3,
        user=world.alice,
        channel=world.general,
        data={"custom_id": "orphan", "component_type": 2},
        message=msg,
    )


async def raw_callback(
    fake: FakeDiscord, inter: Interaction, body: dict[str, Any]
) -> tuple[int, Any]:
    async with (
        aiohttp.ClientSession() as session,
        session.post(
            f"{fake.api_base}/interactions/{inter.id}/{inter.token}/callback",
            params={"with_response": "1"},
            json=body,
        ) as resp,
    ):
        return resp.status, await resp.json()


def text_row(i: int) -> dict[str, Any]:
    return row({"type": 4, "custom_id": f"t{i}", "style": 1, "label": "L"})


async def test_modal_components_and_response_payloads(
    fake_discord: FakeDiscord, world: World, rb: RunningBot
) -> None:
    await rb.channel(world.general).send("a message to click on")
    cases = [
        (
            {
                "type": 9,
                "data": {
                    "custom_id": "m",
                    "title": "T",
                    "components": [text_row(i) for i in range(6)],
                },
            },
            "data.components",
            "BASE_TYPE_BAD_LENGTH",
        ),
        (
            {"type": 9, "data": {"custom_id": "m", "title": "T", "components": []}},
            "data.components",
            "BASE_TYPE_BAD_LENGTH",
        ),
        (
            {
                "type": 9,
                "data": {
                    "custom_id": "m",
                    "title": "T",
                    "components": [
                        row({"type": 4, "custom_id": "t", "style": 1, "label": "l" * 46})
                    ],
                },
            },
            "data.components.0.components.0.label",
            "BASE_TYPE_BAD_LENGTH",
        ),
        ({"type": 4, "data": {"content": "x" * 2001}}, "data.content", "BASE_TYPE_MAX_LENGTH"),
        (
            {"type": 7, "data": {"components": [row(button("a"), button("a"))]}},
            "data.components.0.components.1.custom_id",
            "COMPONENT_CUSTOM_ID_DUPLICATED",
        ),
    ]
    for body, path, code in cases:
        inter = orphan(fake_discord, world)
        status, answer = await raw_callback(fake_discord, inter, body)
        assert (status, answer["code"]) == (400, 50035), answer
        assert code in leaf_codes(answer["errors"]).get(path, []), answer
        good = {
            "type": 9,
            "data": {"custom_id": "m", "title": "T", "components": [text_row(i) for i in range(5)]},
        }
        status, answer = await raw_callback(fake_discord, inter, good)
        assert status == 200 and answer["interaction"]["id"] == str(inter.id)


async def test_double_ack_40060_and_wrong_type(
    fake_discord: FakeDiscord, world: World, rb: RunningBot
) -> None:
    await rb.channel(world.general).send("a message to click on")
    inter = orphan(fake_discord, world)
    status, answer = await raw_callback(fake_discord, inter, {"type": 8, "data": {"choices": []}})
    assert status == 400 and leaf_codes(answer["errors"]) == {
        "type": ["INTERACTION_RESPONSE_TYPE_INVALID"]
    }
    status, answer = await raw_callback(fake_discord, inter, {"type": 6})
    assert status == 200 and answer["interaction"]["response_message_loading"] is False
    status, answer = await raw_callback(fake_discord, inter, {"type": 6})
    assert (status, answer) == (
        400,
        {"message": "Interaction has already been acknowledged.", "code": 40060},
    )


async def test_three_second_window_10062(
    fake_discord: FakeDiscord, world: World, rb: RunningBot
) -> None:
    await rb.channel(world.general).send("a message to click on")
    inter = orphan(fake_discord, world)
    await fake_discord.clock.advance(3.01)
    status, answer = await raw_callback(fake_discord, inter, {"type": 6})
    assert (status, answer) == (404, {"message": "Unknown interaction", "code": 10062})
    inter = orphan(fake_discord, world)
    await fake_discord.clock.advance(2.99)
    assert (await raw_callback(fake_discord, inter, {"type": 6}))[0] == 200


async def test_token_15_minutes_50027(
    fake_discord: FakeDiscord, world: World, driver: UserDriver, rb: RunningBot
) -> None:
    handle = await driver.send_slash("demo defer", world.alice, world.general)
    await handle.wait_followups(2)
    interaction = cog_of(rb).last_interaction
    assert interaction is not None
    await fake_discord.clock.advance(14 * 60)
    await interaction.followup.send("still in time")
    await fake_discord.clock.advance(61)
    with pytest.raises(discord.HTTPException) as info:
        await interaction.followup.send("too late")
    assert (info.value.status, info.value.code) == (401, 50027)


async def test_followup_before_ack_is_unknown_webhook(
    fake_discord: FakeDiscord, world: World, rb: RunningBot
) -> None:
    await rb.channel(world.general).send("a message to click on")
    inter = orphan(fake_discord, world)
    url = f"{fake_discord.api_base}/webhooks/{fake_discord.application_id}/{inter.token}"
    async with aiohttp.ClientSession() as session:
        async with session.post(url, params={"wait": "1"}, json={"content": "hi"}) as resp:
            assert (resp.status, (await resp.json())["code"]) == (404, 10015)
        await raw_callback(fake_discord, inter, {"type": 5})
        async with session.post(url, params={"wait": "1"}, json={"content": "hi"}) as resp:
            assert resp.status == 200
            assert resp.headers["Content-Type"] == "application/json"
