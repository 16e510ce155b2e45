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
cli-names-guessed = 注意：{ $count } 個名稱不是 UTF-8，依猜測以 { $charsets } 顯示；--charset { $charset } 可固定，--raw 顯示原始位元組
cli-users-reloaded = 已重新載入使用者：{ $count } 個具名使用者（已登入的工作階段繼續進行）
cli-users-reload-failed = 未能重新載入使用者，保留原清單：{ $error }
cli-x2-bad-password = URL 中的密碼寫法不正確：請將其中的 / : @ # % 與空格進行百分比編碼（%2F %3A %40 %23 %25 %20）
cli-x2-mv-other-server = { $to } 不在 { $from } 所在的伺服器上：重新命名無法把檔案移到另一台伺服器（請先 get 再 put）
cli-x2-mirror-failed = 失敗：{ $path }：{ $error }
cli-x2-mirror-failures = 鏡像未完成：{ $count } 個失敗（均已在上方列出）；再次執行即可重試並續傳未下載完的檔案
cli-x2-reconnecting = 連線已中斷；正在重新連線
cli-x2-check-dropped = { $what }：伺服器中斷了連線（其餘檢查透過新連線繼續）
cli-x2-check-cleanup-failed = 無法刪除暫存目錄 { $path }：{ $error }
cli-metrics-serving = 指標：http://{ $addr }/metrics，健康檢查：http://{ $addr }/health
