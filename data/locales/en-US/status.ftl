# /shengji status: this bot process, for a server's admins (cogs/status.py).
status-title = Bot status
status-admins-only = Only server admins (Manage Server) can see the bot's status.
status-unsharded = Shards: one process serves every server.
status-shards = Shards of this process: { $shards } (of { $count })
status-this-server = This server is on shard { $shard }.
status-tables = Live tables in this process: { $tables }
status-waiting = Tables still held by another process: { $tables }
status-latency = Store latency: { $ms } ms
status-store-down = Store latency: no answer within 5 seconds.
