# babelftp 命令行消息（简体中文）。
# 名称、URL、数字和应答码都是参数，从不翻译。

cli-error = babelftp：错误：{ $error }
cli-bytes-to = { $bytes } 字节 -> { $dest }
cli-mirror-summary = 已复制 { $copied } 个（{ $bytes } 字节），未更改 { $unchanged } 个，已删除 { $deleted } 个
cli-serving = babelftp 正在 { $url } 上提供 { $root }
cli-connect-hint = 可用任意 FTP 客户端以 "anonymous" 身份连接（只读），例如：{ $example }
cli-stopped = babelftp 已停止。
cli-connecting = 正在连接 { $host }
cli-refused = 服务器拒绝：{ $reply }
cli-url-names-no-file = URL 未指明文件
cli-bad-url = 无效的 URL { $url }
cli-unknown-charset = 未知的字符集 { $charset }
cli-charset-guessed = 字符集：{ $charset }（根据 { $count } 个名称推测）
cli-charset-remembered = 字符集：{ $charset }（已为此服务器记住）
cli-charset-explicit = 字符集：{ $charset }（来自 --charset）
cli-unknown-command = 未知命令 { $command }（请试试 help）
cli-needs-argument = { $command } 需要一个参数
cli-creating = 正在创建 { $path }
cli-opening = 正在打开 { $path }
cli-insecure = 警告：--insecure：不验证服务器证书；网络路径上的任何人都可以冒充 { $host }，读取或篡改本次会话，包括密码和文件
cli-access-anonymous-off = 访问：拒绝匿名登录
cli-access-anonymous-read = 访问：匿名，只读，整个根目录
cli-access-anonymous-write = 访问：匿名，读写，整个根目录
cli-access-user-write = 访问：用户 { $name }，读写，位于 { $home }
cli-access-user-read = 访问：用户 { $name }，只读，位于 { $home }
cli-root-missing = 根目录 { $path } 不存在（只会自动创建默认的 ftp-root；请创建它或改正 --root）
cli-bad-listen = --listen { $value }：{ $error }（请写 地址:端口、主机:端口 或 端口）
cli-starting = 启动服务器
cli-nofile-raised = 打开文件数：上限已从 { $from } 提高到 { $to }
cli-nofile-capped = 警告：打开文件数上限为 { $limit }：同时约 { $sessions } 个会话，而不是 --max-connections 的 { $max } 个；请提高硬上限（ulimit -Hn，或 systemd 单元中的 LimitNOFILE=）
cli-names-guessed = 注意：{ $count } 个名称不是 UTF-8，按猜测以 { $charsets } 显示；--charset { $charset } 可固定，--raw 显示原始字节
cli-users-reloaded = 已重新加载用户：{ $count } 个命名用户（已登录的会话继续进行）
cli-users-reload-failed = 未能重新加载用户，保留原列表：{ $error }
cli-x2-bad-password = URL 中的密码写法不正确：请将其中的 / : @ # % 和空格进行百分号编码（%2F %3A %40 %23 %25 %20）
cli-x2-mv-other-server = { $to } 不在 { $from } 所在的服务器上：重命名无法把文件移到另一台服务器（请先 get 再 put）
cli-x2-mirror-failed = 失败：{ $path }：{ $error }
cli-x2-mirror-failures = 镜像未完成：{ $count } 个失败（均已在上方列出）；再次运行即可重试并续传未下载完的文件
cli-x2-reconnecting = 连接已断开；正在重新连接
cli-x2-check-dropped = { $what }：服务器断开了连接（其余检查通过新连接继续）
cli-x2-check-cleanup-failed = 无法删除临时目录 { $path }：{ $error }
cli-metrics-serving = 指标：http://{ $addr }/metrics，健康检查：http://{ $addr }/health
