"""Building the fake's world and changing it as a moderator would.

Guilds, channels, users, roles and DMs; Discord's permission algorithm; the
moderator's faults (lost permissions, deleted channels, closed DMs) and thread
moderation (archive, lock, reopen) with the events discord.py expects. A mixin of
:class:`~.server.FakeDiscord`, which owns the state it reads.
"""

from __future__ import annotations

from collections.abc import Iterable

from . import errors as E
from .clock import VirtualClock
from .errors import JSON
from .gateway import Gateway
from .state import (
    Channel,
    ChannelType,
    Guild,
    Intents,
    Member,
    Message,
    Notifier,
    Overwrite,
    Perm,
    Role,
    Snowflakes,
    User,
    iso,
)


class WorldMixin:
    """World building, permissions and moderation for :class:`~.server.FakeDiscord`."""

    clock: VirtualClock
    ids: Snowflakes
    owner: User
    bot_user: User
    users: dict[int, User]
    guilds: dict[int, Guild]
    channels: dict[int, Channel]
    thread_members: dict[int, set[int]]
    gateway: Gateway
    notifier: Notifier
    _channel_messages: dict[int, list[Message]]
    _dm_by_user: dict[int, Channel]
    _idle_checked_at: float

    # ================================================================== world building
    def create_guild(
        self, name: str = "Test Guild", *, shard: tuple[int, int] | None = None
    ) -> Guild:
        """A guild the bot is in (GUILD_CREATE is dispatched if the bot is connected).

        Successive guilds fall on successive shards; ``shard=(id, num_shards)`` picks one.
        """
        guild = Guild(self.ids.guild_id(shard), name, self.owner.id, self.clock.time())
        guild.roles[guild.id] = Role(guild.id, guild.id, "@everyone", Perm.EVERYONE_DEFAULT)
        bot_role = Role(
            self.ids.next(),
            guild.id,
            self.bot_user.name,
            Perm.BOT_DEFAULT,
            position=1,
            managed=True,
        )
        guild.roles[bot_role.id] = bot_role
        self.guilds[guild.id] = guild
        guild.members[self.bot_user.id] = Member(
            self.bot_user, guild.id, [bot_role.id], self.clock.time()
        )
        guild.members[self.owner.id] = Member(self.owner, guild.id, [], self.clock.time())
        # A guild joined live has no "unavailable" key (discord.py then fires
        # on_guild_join); the READY-time ones say unavailable: false (on_guild_available).
        payload = self.guild_create_payload(guild)
        del payload["unavailable"]
        self.gateway.dispatch("GUILD_CREATE", payload, intent=Intents.GUILDS)
        return guild

    def remove_bot(self, guild: Guild) -> None:
        """A moderator kicks the bot: GUILD_DELETE without ``unavailable`` (discord.py's
        on_guild_remove); from then on the bot sees nothing there (403 Missing Access) and
        a new READY no longer lists the server."""
        del guild.members[self.bot_user.id]
        self.gateway.dispatch("GUILD_DELETE", {"id": str(guild.id)}, intent=Intents.GUILDS)
        self.notifier.notify()

    def set_preferred_locale(self, guild: Guild, locale: str) -> None:
        """The server's admins change its Community language: Discord sends GUILD_UPDATE."""
        guild.preferred_locale = locale
        payload = self.guild_create_payload(guild)
        for key in ("unavailable", "channels", "threads", "members", "member_count", "joined_at"):
            payload.pop(key, None)  # GUILD_UPDATE carries the guild object only
        self.gateway.dispatch("GUILD_UPDATE", payload, intent=Intents.GUILDS)

    def create_text_channel(
        self, guild: Guild, name: str, *, category: Channel | None = None
    ) -> Channel:
        channel = Channel(
            self.ids.next(),
            ChannelType.GUILD_TEXT,
            name,
            guild.id,
            parent_id=category.id if category else None,
            position=len(guild.channel_ids),
            created_at=self.clock.time(),
        )
        self.add_channel(guild, channel)
        self.gateway.dispatch("CHANNEL_CREATE", channel.payload(), intent=Intents.GUILDS)
        return channel

    def create_category(self, guild: Guild, name: str) -> Channel:
        channel = Channel(
            self.ids.next(),
            ChannelType.GUILD_CATEGORY,
            name,
            guild.id,
            position=len(guild.channel_ids),
            created_at=self.clock.time(),
        )
        self.add_channel(guild, channel)
        self.gateway.dispatch("CHANNEL_CREATE", channel.payload(), intent=Intents.GUILDS)
        return channel

    def add_channel(self, guild: Guild, channel: Channel) -> None:
        self.channels[channel.id] = channel
        guild.channel_ids.append(channel.id)
        self._channel_messages[channel.id] = []

    def create_user(self, name: str, *, guild: Guild | Iterable[Guild] | None = None) -> User:
        """A simulated person; with ``guild`` they are also a member there."""
        user = User(self.ids.next(), name)
        self.users[user.id] = user
        guilds = [guild] if isinstance(guild, Guild) else list(guild or [])
        for g in guilds:
            self.add_member(g, user)
        return user

    def add_member(self, guild: Guild, user: User, roles: Iterable[Role] = ()) -> Member:
        member = Member(user, guild.id, [r.id for r in roles], self.clock.time())
        guild.members[user.id] = member
        self.gateway.dispatch(
            "GUILD_MEMBER_ADD",
            member.payload() | {"guild_id": str(guild.id)},
            intent=Intents.GUILD_MEMBERS,
        )
        return member

    def create_role(self, guild: Guild, name: str, permissions: int = 0) -> Role:
        role = Role(self.ids.next(), guild.id, name, permissions, position=len(guild.roles))
        guild.roles[role.id] = role
        self.gateway.dispatch(
            "GUILD_ROLE_CREATE",
            {"guild_id": str(guild.id), "role": role.payload()},
            intent=Intents.GUILDS,
        )
        return role

    def dm_channel(self, user: User) -> Channel:
        """The DM channel between the bot and ``user`` (created on first use)."""
        channel = self._dm_by_user.get(user.id)
        if channel is None:
            channel = Channel(
                self.ids.next(), ChannelType.DM, recipient=user, created_at=self.clock.time()
            )
            self.channels[channel.id] = channel
            self._channel_messages[channel.id] = []
            self._dm_by_user[user.id] = channel
        return channel

    def guild_of(self, channel: Channel) -> Guild | None:
        return self.guilds.get(channel.guild_id) if channel.guild_id else None

    def guild_create_payload(self, guild: Guild) -> JSON:
        channels = [self.channels[c] for c in guild.channel_ids if not self.channels[c].deleted]
        return {
            "id": str(guild.id),
            "name": guild.name,
            "icon": None,
            "splash": None,
            "discovery_splash": None,
            "banner": None,
            "description": None,
            "owner_id": str(guild.owner_id),
            "afk_channel_id": None,
            "afk_timeout": 300,
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "mfa_level": 0,
            "nsfw_level": 0,
            "premium_tier": 0,
            "premium_subscription_count": 0,
            "premium_progress_bar_enabled": False,
            "preferred_locale": guild.preferred_locale,
            "system_channel_id": None,
            "system_channel_flags": 0,
            "rules_channel_id": None,
            "public_updates_channel_id": None,
            "safety_alerts_channel_id": None,
            "vanity_url_code": None,
            "max_members": 500000,
            "max_video_channel_users": 25,
            "features": [],
            "roles": [r.payload() for r in guild.roles.values()],
            "emojis": [],
            "stickers": [],
            "joined_at": iso(guild.joined_at),
            "large": False,
            "unavailable": False,
            "member_count": len(guild.members),
            "members": [m.payload() for m in guild.members.values()],
            "channels": [c.payload() for c in channels if not c.is_thread],
            "threads": [c.payload() for c in channels if c.is_thread and not c.archived],
            "presences": [],
            "voice_states": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "soundboard_sounds": [],
            "application_id": None,
        }

    # ================================================================== permissions
    def permissions(self, user: User, channel: Channel) -> int:
        """Discord's permission algorithm: roles, then @everyone/role/member overwrites."""
        if channel.is_dm or channel.guild_id is None:
            return Perm.EVERYONE_DEFAULT
        guild = self.guilds[channel.guild_id]
        if guild.owner_id == user.id:
            return Perm.ALL
        member = guild.members.get(user.id)
        if member is None:
            return 0
        perms = guild.roles[guild.id].permissions
        for rid in member.roles:
            perms |= guild.roles[rid].permissions
        if perms & Perm.ADMINISTRATOR:
            return Perm.ALL
        base = (
            self.channels.get(channel.parent_id)
            if channel.is_thread and channel.parent_id
            else channel
        )
        overwrites = {(o.type, o.id): o for o in (base.overwrites if base else [])}
        everyone = overwrites.get((0, guild.id))
        if everyone:
            perms = (perms & ~everyone.deny) | everyone.allow
        deny = allow = 0
        for rid in member.roles:
            o = overwrites.get((0, rid))
            if o:
                deny |= o.deny
                allow |= o.allow
        perms = (perms & ~deny) | allow
        mine = overwrites.get((1, user.id))
        if mine:
            perms = (perms & ~mine.deny) | mine.allow
        if not perms & Perm.VIEW_CHANNEL:
            return 0
        if (
            channel.type == ChannelType.PRIVATE_THREAD
            and user.id not in self.thread_members.get(channel.id, ())
            and not perms & Perm.MANAGE_THREADS
        ):
            return 0  # a private thread is seen by its members and by moderators only
        return perms

    def revoke_permissions(self, channel: Channel, perms: int = Perm.SEND_MESSAGES) -> None:
        """Fault: deny the bot ``perms`` in ``channel`` (a member overwrite + CHANNEL_UPDATE).

        Sending there then answers 403/50013 Missing Permissions (or 50001 Missing
        Access when VIEW_CHANNEL is denied), as when a moderator edits the channel.
        Threads have no overwrites of their own: for a thread the overwrite goes on
        its parent, so it reaches every thread of that channel, as on Discord.
        """
        channel = self._overwritable(channel)
        for o in channel.overwrites:
            if o.type == 1 and o.id == self.bot_user.id:
                o.deny |= perms
                o.allow &= ~perms
                break
        else:
            channel.overwrites.append(Overwrite(self.bot_user.id, 1, deny=perms))
        self.gateway.dispatch("CHANNEL_UPDATE", channel.payload(), intent=Intents.GUILDS)

    def restore_permissions(self, channel: Channel) -> None:
        channel = self._overwritable(channel)
        channel.overwrites = [
            o for o in channel.overwrites if not (o.type == 1 and o.id == self.bot_user.id)
        ]
        self.gateway.dispatch("CHANNEL_UPDATE", channel.payload(), intent=Intents.GUILDS)

    def _overwritable(self, channel: Channel) -> Channel:
        if channel.is_thread and channel.parent_id is not None:
            return self.channels[channel.parent_id]
        return channel

    def delete_channel(self, channel: Channel) -> None:
        """Fault: a moderator deletes the channel (CHANNEL_DELETE; later calls get 404/10003).

        A thread gets THREAD_DELETE. Deleting a text channel deletes its threads too
        (discord.py drops them from its cache on the CHANNEL_DELETE itself).
        """
        channel.deleted = True
        for thread in self.threads(channel):
            thread.deleted = True
        event = "THREAD_DELETE" if channel.is_thread else "CHANNEL_DELETE"
        data = channel.payload()
        if channel.is_thread:
            data = {
                "id": str(channel.id),
                "guild_id": str(channel.guild_id),
                "parent_id": str(channel.parent_id),
                "type": channel.type,
            }
        self.gateway.dispatch(event, data, intent=Intents.GUILDS)
        self.notifier.notify()

    # ================================================================== threads
    def threads(self, parent: Channel | None = None) -> list[Channel]:
        """Threads that are not deleted (archived ones included), oldest first."""
        return [
            c
            for c in self.channels.values()
            if c.is_thread and not c.deleted and (parent is None or c.parent_id == parent.id)
        ]

    def archive_thread(self, thread: Channel, *, lock: bool = False) -> None:
        """Fault: a moderator closes (archives) a thread, optionally locking it.

        THREAD_UPDATE is dispatched (discord.py then drops the thread from the guild's
        active threads). As on Discord, the bot's next message in an archived thread
        unarchives it, unless the thread is locked and the bot lacks MANAGE_THREADS
        (then 400/50083); edits and reactions in an archived thread answer 400/50083.
        """
        self.update_thread(thread, archived=True, locked=thread.locked or lock)

    def lock_thread(self, thread: Channel) -> None:
        """Fault: a moderator locks an active thread (posts and edits then answer 400/160005
        unless the bot has MANAGE_THREADS)."""
        self.update_thread(thread, locked=True)

    def unarchive_thread(self, thread: Channel) -> None:
        """A moderator reopens a thread (unarchived and unlocked)."""
        self.update_thread(thread, archived=False, locked=False)

    def update_thread(
        self,
        thread: Channel,
        *,
        archived: bool | None = None,
        locked: bool | None = None,
        name: str | None = None,
        auto_archive_duration: int | None = None,
    ) -> None:
        """Change a thread's metadata and dispatch THREAD_UPDATE."""
        assert thread.is_thread, "not a thread"
        if archived is not None and archived != thread.archived:
            thread.archived = archived
            thread.archive_timestamp = self.clock.time()
            if not archived:
                thread.last_activity = self.clock.time()
        if locked is not None:
            thread.locked = locked
        if name is not None:
            thread.name = name
        if auto_archive_duration is not None:
            thread.auto_archive_duration = auto_archive_duration
            thread.last_activity = self.clock.time()
        self.gateway.dispatch("THREAD_UPDATE", thread.payload(), intent=Intents.GUILDS)
        self.notifier.notify()

    def archive_idle_threads(self) -> None:
        """Discord archives a thread after ``auto_archive_duration`` minutes without
        activity; the fake does it as virtual time passes (checked on each request and
        interaction, at most once per virtual second)."""
        now = self.clock.time()
        if now - self._idle_checked_at < 1.0:
            return
        self._idle_checked_at = now
        for thread in self.threads():
            idle = now - max(thread.created_at, thread.last_activity)
            if not thread.archived and idle >= thread.auto_archive_duration * 60:
                self.update_thread(thread, archived=True)

    def check_thread_post(self, channel: Channel) -> None:
        """Discord's rule for a new message in a thread: it unarchives the thread, unless
        the thread is locked and the bot cannot manage threads."""
        if not channel.is_thread:
            return
        if channel.locked and not self.permissions(self.bot_user, channel) & Perm.MANAGE_THREADS:
            raise E.thread_archived() if channel.archived else E.thread_locked()
        if channel.archived:
            self.update_thread(channel, archived=False)

    def check_thread_edit(self, channel: Channel) -> None:
        """Archived threads are read-only (edits, reactions); locked ones for non-moderators."""
        if not channel.is_thread:
            return
        if channel.archived:
            raise E.thread_archived()
        if channel.locked and not self.permissions(self.bot_user, channel) & Perm.MANAGE_THREADS:
            raise E.thread_locked()

    def close_dms(self, user: User) -> None:
        """Fault: ``user`` does not accept DMs from the bot (403/50007 on send)."""
        user.dms_closed = True

    def open_dms(self, user: User) -> None:
        user.dms_closed = False
