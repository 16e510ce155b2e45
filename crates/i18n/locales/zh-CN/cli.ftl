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
cli-x3-password-prompt = { $host } 上 { $user } 的密码：
cli-x3-password-unread = 读取密码时
cli-x3-passwd-new = 新密码：
cli-x3-passwd-again = 再输入一次同一密码：
cli-x3-passwd-mismatch = 两次输入的密码不一致；未输出任何内容
cli-x3-passwd-empty = 密码为空
cli-x3-interrupted = { $command }：已中断
cli-x3-reconnecting = 连接未能恢复同步；正在重新连接
cli-x3-mv-usage = mv 需要两个名称：mv 旧名 新名
cli-x3-lcd-failed = lcd { $path }
cli-x3-local-dir = 本地目录：{ $path }
cli-x3-local-command-failed = 运行本地命令时
cli-x3-password-no-terminal = 没有终端可询问 { $host } 上 { $user } 的密码：将发送空密码（可用 -u { $user }:PASSWORD 或在 ~/.netrc 中给出）
