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
