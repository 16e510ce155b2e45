# babelftp 服务器应答文本，简体中文版（原文为英文消息目录）。
# 应答码、FEAT 特性名称和路径名均不属于这些文本。
# 发送时，文本前面可能带有加引号的路径名（257 应答）；
# "path-is-current" 和 "path-created" 按紧跟在路径名之后的方式书写。

greeting = babelftp 已就绪。
goodbye = 再见。
command-ok = 命令执行成功。
need-password = 用户名正确，请输入密码。
logged-in = 用户已登录，请继续。
logged-in-anonymous = 已允许匿名访问（只读）。
login-failed = 登录失败。
home-unavailable = 登录被拒绝：此账户的主目录不可用；请联系管理员。
not-logged-in = 请先使用 USER 和 PASS 登录。
already-logged-in = 您已登录。
account-not-needed = 本站点无需账户。
bad-sequence = 命令顺序错误。
cwd-ok = 已切换目录。
path-is-current = 是当前目录。
path-created = 已创建。
directory-removed = 目录已删除。
file-deleted = 文件已删除。
rename-pending = 文件存在，请指定目标名称。
renamed = 重命名成功。
restart-pending = 将从位置 { $offset } 重新开始。请发送 STOR 或 RETR 开始传输。
type-set = 传输类型已设置为 { $type }。
stru-ok = 文件结构已设置为 F。
mode-ok = 传输模式已设置为 S。
superfluous = 此处无需该命令。
system-type = UNIX Type: L8
features = 支持的特性：
end = 结束
help-intro = 可识别以下命令：
help-end = 帮助信息结束。
status-intro = 状态：
status-end = 状态信息结束。
passive = 进入被动模式
extended-passive = 进入扩展被动模式
port-ok = 已接受主动模式数据连接地址。
port-refused = 已拒绝：数据地址必须是您自己的地址，且端口号不小于 1024。
opening-data = 正在打开数据连接。
transfer-complete = 传输完成。
transfer-aborted = 连接已关闭，传输中止。
abort-ok = 已成功中止。
no-transfer = 没有可中止的传输。
cant-open-data = 无法打开数据连接。
passive-limit = 您的地址占用的被动端口过多；请在某个传输结束后重试。
data-timeout = 数据连接超时。
pasv-needs-ipv4 = PASV 仅适用于 IPv4，请使用 EPSV。
epsv-all-only = 使用 EPSV ALL 之后，只能通过 EPSV 建立数据连接。
epsv-all-ok = 已接受 EPSV ALL。
no-such-file = 文件或目录不存在。
not-a-file = 不是普通文件。
not-a-directory = 不是目录。
permission-denied = 权限不足。
file-exists = 文件已存在。
directory-not-empty = 目录非空。
no-space = 存储空间不足。
local-error = 处理时发生本地错误。
unknown-command = 命令未实现。
syntax-error = 语法错误，无法识别命令。
argument-error = 参数语法错误。
parameter-not-implemented = 该命令未实现此参数。
protocol-not-supported = 不支持该网络协议，请使用 (1,2)
line-too-long = 命令行过长。
idle-timeout = 空闲超时，正在关闭控制连接。
shutting-down = 服务器即将关闭，正在断开控制连接。
too-many-connections = 连接数过多，请稍后重试。
out-of-resources = 资源耗尽（打开的文件或内存），正在关闭控制连接；请稍后重试。
utf8-on = 已启用 UTF-8 路径名。
utf8-off = 已禁用 UTF-8 路径名：正在使用客户端的传统字符集。
option-unknown = 无法识别的选项。
lang-ok = 语言已设置为 { $language }。
lang-default = 语言已重置为默认语言 { $language }。
lang-unsupported = 不支持该语言。
lang-malformed = 语言标签格式错误。
host-ok = 已接受该主机。
host-unknown = 未知主机。
host-after-login = HOST 必须在登录之前发送。
unique-name = 开始传输；唯一文件名：
name-untranslatable = 该名称无法用此目录的字符集表示。
name-not-in-charset = 该名称无法用服务器的字符集（{ $charset }）保存。
language-name = 简体中文

# FTPS (RFC 4217)
auth-ok = 已接受 AUTH TLS：开始 TLS 握手。
auth-already = 控制连接已受保护。
auth-unsupported = 不支持该安全机制，请使用 AUTH TLS。
prot-ok = 数据保护级别已设置为 { $level }。
prot-unsupported = 不支持该保护级别，请使用 PROT C 或 PROT P。
ccc-refused = 不允许将命令通道恢复为明文。
tls-required = 必须使用 TLS：请先发送 AUTH TLS。
prot-required = 数据连接必须受保护：请先发送 PROT P。
tls-reuse-required = 数据连接必须复用 TLS 会话（从不恢复会话的客户端需要在服务器上设置 tls_reuse_required = false）。
tls-data-failed = 数据连接上的 TLS 协商失败。
chmod-ok = SITE CHMOD 命令执行成功。
bad-mode = 用法：SITE CHMOD <模式> <路径>，模式为 0 到 777 的八进制数。
site-help = SITE 命令：
site-unknown = 未知的 SITE 命令（SITE HELP 可列出）。
storage-unsupported = 此存储无法执行（对象存储不支持追加、按偏移写入和权限）。
policy-denied = 权限不足：此账户在此处没有“{ $perm }”权限。
policy-denied-inside = 权限不足：此内部文件夹没有“{ $perm }”权限，而它会随之被移动或删除。
banned = 来自您地址的登录失败次数过多，请稍后再试。
user-sessions-limit = 此账户打开的会话已达上限：请关闭一个后重试。
quota-exceeded = 超出配额：此次上传会超过账户的限额；文件保持原样。
quota-entries = 超出配额：此账户不能再拥有更多文件或文件夹。
quota-status = 此账户的配额：
quota-bytes = 空间：已用 { $used }，共 { $limit }
quota-files = 文件：{ $used }，共 { $limit }
quota-no-limit = 无限制
quota-none = 此账户没有配额。
ended-by-admin = 管理员已结束此会话。
web-bad-path = 此地址不是本服务器上的路径。
web-bad-method = 此处不支持该方法。
web-csrf = 表单已过期或来自其他网站：请刷新页面后重试。
web-bad-action = 未知操作。
web-bad-form = 无法读取表单。
web-login-failed = 登录失败：用户名或密码错误。
web-unavailable = 服务器暂时无法响应，请稍后重试。
web-not-found = 没有这个文件或文件夹。
web-denied = 您无权在此执行该操作。
web-denied-inside = 无法执行：其中的文件夹“{ $path }”不允许“{ $perm }”。
web-exists = 同名的文件或文件夹已存在。
web-not-empty = 文件夹不为空。
web-bad-name = 此处不能使用该名称。
web-quota = 超出配额：此次上传将超过账户限额，未保留任何内容。
web-full = 存储已满，未保留任何内容。
web-busy = 此账户打开的会话已达上限：请关闭一个后重试。
web-unsupported = 存储不支持此操作。
web-signed-in = 已登录为 { $user }
web-logout = 退出
web-login = 登录
web-language = 语言
web-language-apply = 应用
web-upload-label = 上传文件：
web-upload = 上传
web-mkdir-label = 新建文件夹：
web-mkdir = 创建
web-paged = 此文件夹很大：每页 { $count } 项，按存储顺序显示（第 { $page } 页）；排序仅在页内进行。
web-copy-ftp = 复制 FTP 链接
web-copied = 已复制
web-col-name = 名称
web-col-size = 大小
web-col-time = 修改时间
web-details = 详情
web-empty = 此文件夹为空。
web-page-prev = 上一页
web-page-next = 下一页
web-link-web = 网页链接
web-link-ftp = FTP 链接
web-download = 下载
web-rename-label = 新名称：
web-rename = 重命名
web-delete = 删除
web-user = 用户名
web-password = 密码
web-stalled = 上传已停止传来，未保存任何内容。

# issue 45: server
reserved-name = 此名称保留给服务器的临时上传文件（.babelftp-*.part），请另选一个。
web-reserved-name = 该名称保留给服务器的临时上传文件（.babelftp-*.part），请另选一个。


# issue 48 (operate)
server-full = 服务器已打开其允许的最多会话数（{ $max }）：请稍后重试。
address-full = 您的地址已打开本服务器允许单个地址的最多会话数（{ $max }）：请关闭一个或稍后重试。
# issue 48 (access)
web-drop-box = 您可以在此放入文件，但不能查看此文件夹的内容。
lang-account = 语言已重置为您账户的语言 { $language }。
lang-default-until-login = 语言已重置为默认语言 { $language }；设有自己语言的账户将在登录时使用该语言。
# issue 48 (ftps)
tls-reuse-required-account = 数据连接必须复用 TLS 会话（从不恢复会话的客户端需要在服务器上设置 tls_reuse_required = false，或为其账户执行 babelftp user set NAME --tls-reuse optional）。
# issue 49 (find)
web-find-label = 在此文件夹中查找:
web-find = 查找
web-found = { $path } 中的“{ $text }”:找到 { $count } 个
web-found-none = 此处及其下级没有名称包含“{ $text }”。
web-found-cut = 搜索提前停止(最多 { $results } 个结果,最多查看 { $entries } 个条目):请缩小范围,或在更下层的文件夹中查找。
web-found-back = 返回文件夹
web-find-too-long = 搜索文字太长:最多 { $max } 字节。
# issue 49 (page)
web-login-title = 登录 { $product }
# issue 49 (zip)
web-zip-download = 将所选项目下载为 zip
web-zip-select = 选择
web-zip-none = 请至少勾选一项以下载为 zip。
web-preview = 预览
web-preview-charset = 字符集：{ $charset }
web-preview-cut = 仅显示前 { $size }。

# issue 49 (upload)
web-skip = 跳到内容
web-col-actions = 操作
web-size-exact = { $bytes } 字节
web-row-menu = { $name } 的操作
web-uploads = 上传
web-upload-waiting = 等待中
web-upload-sending = 正在发送
web-upload-done = 完成
web-upload-cancel = 取消
web-upload-cancelled = 已取消
web-upload-failed = 失败：连接已断开。
# issue 49 (share)
web-share-gone = 此共享链接已失效：已过期、次数已用完或已被删除。
web-share-network = 无法从您的网络使用此共享链接。
web-share-unavailable = 共享链接需要账户库中的账户。
web-share-title = 共享链接
web-share-expires = 有效期
web-share-never = 永久
web-share-hour = 1 小时
web-share-day = 1 天
web-share-week = 7 天
web-share-month = 30 天
web-share-password = 密码（可选）
web-share-max = 下载次数上限（可选）
web-share-upload = 上传链接：其他人可以把文件放进此文件夹
web-share-create = 创建链接
web-share-created = 已创建共享链接 { $id }。请现在复制：它只显示一次。
web-share-locked = 此共享链接需要密码
web-share-wrong = 密码错误。
web-share-open = 打开
