# /shengji status：本进程的状态，仅限服务器管理员（cogs/status.py）。
status-title = 机器人状态
status-admins-only = 只有服务器管理员（管理服务器权限）可以查看机器人状态。
status-unsharded = 分片：单进程服务所有服务器。
status-shards = 本进程的分片：{ $shards }（共{ $count }个）
status-this-server = 本服务器在分片{ $shard }。
status-tables = 本进程进行中的牌桌：{ $tables }
status-waiting = 仍由其他进程持有的牌桌：{ $tables }
status-latency = 数据库延迟：{ $ms }毫秒
status-store-down = 数据库延迟：5秒内无响应。
