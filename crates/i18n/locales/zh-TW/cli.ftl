# babelftp 命令列訊息（繁體中文）。
# 名稱、URL、數字與回應碼都是參數，一律不翻譯。

cli-error = babelftp：錯誤：{ $error }
cli-bytes-to = { $bytes } 位元組 -> { $dest }
cli-mirror-summary = 已複製 { $copied } 個（{ $bytes } 位元組），未變更 { $unchanged } 個，已刪除 { $deleted } 個
cli-serving = babelftp 正在 { $url } 上提供 { $root }
cli-connect-hint = 可用任何 FTP 用戶端以 "anonymous" 身分連線（唯讀），例如：{ $example }
cli-stopped = babelftp 已停止。
cli-connecting = 正在連線到 { $host }
cli-refused = 伺服器拒絕：{ $reply }
cli-url-names-no-file = URL 未指明檔案
cli-bad-url = 無效的 URL { $url }
cli-unknown-charset = 未知的字元集 { $charset }
cli-charset-guessed = 字元集：{ $charset }（依 { $count } 個名稱推測）
cli-charset-remembered = 字元集：{ $charset }（已為此伺服器記住）
cli-charset-explicit = 字元集：{ $charset }（來自 --charset）
cli-unknown-command = 未知的指令 { $command }（請試試 help）
cli-needs-argument = { $command } 需要一個參數
cli-creating = 正在建立 { $path }
cli-opening = 正在開啟 { $path }
cli-insecure = 警告：--insecure：不驗證伺服器憑證；網路路徑上的任何人都可以冒充 { $host }，讀取或竄改本次工作階段，包括密碼和檔案
cli-access-anonymous-off = 存取：拒絕匿名登入
cli-access-anonymous-read = 存取：匿名，唯讀，整個根目錄
cli-access-anonymous-write = 存取：匿名，讀寫，整個根目錄
cli-access-user-write = 存取：使用者 { $name }，讀寫，位於 { $home }
cli-access-user-read = 存取：使用者 { $name }，唯讀，位於 { $home }
cli-root-missing = 根目錄 { $path } 不存在（只會自動建立預設的 ftp-root；請建立它或改正 --root）
cli-bad-listen = --listen { $value }：{ $error }（請寫 位址:連接埠、主機:連接埠 或 連接埠）
cli-starting = 啟動伺服器
cli-nofile-raised = 開啟檔案數：上限已從 { $from } 提高到 { $to }
cli-nofile-capped = 警告：開啟檔案數上限為 { $limit }：同時約 { $sessions } 個工作階段，而非 --max-connections 的 { $max } 個；請提高硬上限（ulimit -Hn，或 systemd 單元中的 LimitNOFILE=）
cli-x3-password-prompt = { $host } 上 { $user } 的密碼：
cli-x3-password-unread = 讀取密碼時
cli-x3-passwd-new = 新密碼：
cli-x3-passwd-again = 再輸入一次同一密碼：
cli-x3-passwd-mismatch = 兩次輸入的密碼不一致；未輸出任何內容
cli-x3-passwd-empty = 密碼為空
cli-x3-interrupted = { $command }：已中斷
cli-x3-reconnecting = 連線未能恢復同步；正在重新連線
cli-x3-mv-usage = mv 需要兩個名稱：mv 舊名 新名
cli-x3-lcd-failed = lcd { $path }
cli-x3-local-dir = 本機目錄：{ $path }
cli-x3-local-command-failed = 執行本機指令時
cli-x3-password-no-terminal = 沒有終端機可詢問 { $host } 上 { $user } 的密碼：將送出空密碼（可用 -u { $user }:PASSWORD 或在 ~/.netrc 中提供）
