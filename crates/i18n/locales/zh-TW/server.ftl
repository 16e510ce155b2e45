# babelftp 伺服器回應文字，繁體中文版（原文為英文訊息目錄）。
# 回應碼、FEAT 功能名稱與路徑名稱皆不屬於這些文字。
# 傳送時，文字前面可能會有加上引號的路徑名稱（257 回應）；
# "path-is-current" 與 "path-created" 是以緊接在路徑名稱之後的方式撰寫。

greeting = babelftp 已就緒。
goodbye = 再見。
command-ok = 指令執行成功。
need-password = 使用者名稱正確，請輸入密碼。
logged-in = 使用者已登入，請繼續。
logged-in-anonymous = 已允許匿名存取（唯讀）。
login-failed = 登入失敗。
home-unavailable = 登入遭拒：此帳號的主目錄無法使用；請洽詢管理員。
not-logged-in = 請先使用 USER 與 PASS 登入。
already-logged-in = 您已登入。
account-not-needed = 本站不需要帳號。
bad-sequence = 指令順序錯誤。
cwd-ok = 已切換目錄。
path-is-current = 是目前的目錄。
path-created = 已建立。
directory-removed = 目錄已刪除。
file-deleted = 檔案已刪除。
rename-pending = 檔案存在，請指定目的名稱。
renamed = 重新命名成功。
restart-pending = 將從位置 { $offset } 重新開始。請傳送 STOR 或 RETR 以開始傳輸。
type-set = 傳輸類型已設為 { $type }。
stru-ok = 檔案結構已設為 F。
mode-ok = 傳輸模式已設為 S。
superfluous = 此處不需要這個指令。
system-type = UNIX Type: L8
features = 支援的功能：
end = 結束
help-intro = 可辨識下列指令：
help-end = 說明結束。
status-intro = 狀態：
status-end = 狀態資訊結束。
passive = 進入被動模式
extended-passive = 進入延伸被動模式
port-ok = 已接受主動模式資料連線位址。
port-refused = 已拒絕：資料位址必須是您自己的位址，且連接埠須為 1024 以上。
opening-data = 正在開啟資料連線。
transfer-complete = 傳輸完成。
transfer-aborted = 連線已關閉，傳輸已中止。
abort-ok = 已成功中止。
no-transfer = 沒有可中止的傳輸。
cant-open-data = 無法開啟資料連線。
passive-limit = 您的位址占用的被動連接埠過多；請在某個傳輸結束後再試。
data-timeout = 資料連線逾時。
pasv-needs-ipv4 = PASV 僅適用於 IPv4，請改用 EPSV。
epsv-all-only = 使用 EPSV ALL 之後，只能以 EPSV 建立資料連線。
epsv-all-ok = 已接受 EPSV ALL。
no-such-file = 檔案或目錄不存在。
not-a-file = 不是一般檔案。
not-a-directory = 不是目錄。
permission-denied = 權限不足。
file-exists = 檔案已存在。
directory-not-empty = 目錄不是空的。
no-space = 儲存空間不足。
local-error = 處理時發生本機錯誤。
unknown-command = 指令尚未實作。
syntax-error = 語法錯誤，無法辨識指令。
argument-error = 參數或引數語法錯誤。
parameter-not-implemented = 此指令尚未實作該參數。
protocol-not-supported = 不支援此網路通訊協定，請使用 (1,2)
line-too-long = 指令列過長。
idle-timeout = 閒置逾時，正在關閉控制連線。
shutting-down = 伺服器即將關閉，正在中斷控制連線。
too-many-connections = 連線數過多，請稍後再試。
out-of-resources = 資源耗盡（開啟的檔案或記憶體），正在關閉控制連線；請稍後再試。
utf8-on = 已啟用 UTF-8 路徑名稱。
utf8-off = 已停用 UTF-8 路徑名稱：正在使用用戶端的舊式字元集。
option-unknown = 無法辨識的選項。
lang-ok = 語言已設為 { $language }。
lang-default = 語言已重設為預設語言 { $language }。
lang-unsupported = 不支援此語言。
lang-malformed = 語言標籤格式錯誤。
host-ok = 已接受該主機。
host-unknown = 未知的主機。
host-after-login = HOST 必須在登入之前傳送。
unique-name = 開始傳輸；唯一檔案名稱：
name-untranslatable = 此名稱無法以這個目錄的字元集表示。
name-not-in-charset = 此名稱無法以伺服器的字元集（{ $charset }）儲存。
language-name = 繁體中文

# FTPS (RFC 4217)
auth-ok = 已接受 AUTH TLS：開始 TLS 交握。
auth-already = 控制連線已受保護。
auth-unsupported = 不支援此安全機制，請改用 AUTH TLS。
prot-ok = 資料保護等級已設為 { $level }。
prot-unsupported = 不支援此保護等級，請使用 PROT C 或 PROT P。
ccc-refused = 不允許將指令通道恢復為明文。
tls-required = 必須使用 TLS：請先傳送 AUTH TLS。
prot-required = 資料連線必須受到保護：請先傳送 PROT P。
tls-reuse-required = 資料連線必須重複使用 TLS 工作階段（從不恢復工作階段的用戶端需要在伺服器上設定 tls_reuse_required = false）。
tls-data-failed = 資料連線的 TLS 協商失敗。
chmod-ok = SITE CHMOD 指令執行成功。
bad-mode = 用法：SITE CHMOD <模式> <路徑>，模式為 0 到 777 的八進位數。
site-help = SITE 指令：
site-unknown = 未知的 SITE 指令（SITE HELP 可列出）。
storage-unsupported = 此儲存無法執行（物件儲存不支援附加、依位移寫入與權限）。
policy-denied = 權限不足：此帳戶在此處沒有「{ $perm }」權限。
policy-denied-inside = 權限不足：此內部資料夾沒有「{ $perm }」權限，而它會隨之被移動或刪除。
banned = 來自您位址的登入失敗次數過多，請稍後再試。
user-sessions-limit = 此帳戶開啟的工作階段已達上限：請關閉一個後重試。
quota-exceeded = 超出配額：此次上傳會超過帳戶的限額；檔案保持原樣。
quota-entries = 超出配額：此帳戶不能再擁有更多檔案或資料夾。
quota-status = 此帳戶的配額：
quota-bytes = 空間：已用 { $used }，共 { $limit }
quota-files = 檔案：{ $used }，共 { $limit }
quota-no-limit = 無限制
quota-none = 此帳戶沒有配額。
ended-by-admin = 管理員已結束此工作階段。
web-bad-path = 此位址不是本伺服器上的路徑。
web-bad-method = 此處不支援該方法。
web-csrf = 表單已過期或來自其他網站：請重新載入頁面後再試。
web-bad-action = 未知的操作。
web-bad-form = 無法讀取表單。
web-login-failed = 登入失敗：使用者名稱或密碼錯誤。
web-unavailable = 伺服器暫時無法回應，請稍後再試。
web-not-found = 沒有這個檔案或資料夾。
web-denied = 您沒有權限在此執行該操作。
web-denied-inside = 無法執行：其中的資料夾「{ $path }」不允許「{ $perm }」。
web-exists = 同名的檔案或資料夾已存在。
web-not-empty = 資料夾不是空的。
web-bad-name = 此處不能使用該名稱。
web-quota = 超出配額：這次上傳將超過帳戶限額，未保留任何內容。
web-full = 儲存空間已滿，未保留任何內容。
web-busy = 此帳戶開啟的工作階段已達上限：請關閉一個後再試。
web-unsupported = 儲存空間不支援此操作。
web-signed-in = 已登入為 { $user }
web-logout = 登出
web-login = 登入
web-language = 語言
web-language-apply = 套用
web-upload-label = 上傳檔案：
web-upload = 上傳
web-mkdir-label = 新增資料夾：
web-mkdir = 建立
web-paged = 此資料夾很大：每頁 { $count } 項，依儲存順序顯示（第 { $page } 頁）；排序只在頁內進行。
web-copy-ftp = 複製 FTP 連結
web-copied = 已複製
web-col-name = 名稱
web-col-size = 大小
web-col-time = 修改時間
web-details = 詳細資料
web-empty = 此資料夾是空的。
web-page-prev = 上一頁
web-page-next = 下一頁
web-link-web = 網頁連結
web-link-ftp = FTP 連結
web-download = 下載
web-rename-label = 新名稱：
web-rename = 重新命名
web-delete = 刪除
web-user = 使用者名稱
web-password = 密碼
web-stalled = 上傳已停止傳來，未儲存任何內容。

# issue 45: server
reserved-name = 此名稱保留給伺服器的暫存上傳檔案（.babelftp-*.part），請另選一個。
web-reserved-name = 該名稱保留給伺服器的暫存上傳檔案（.babelftp-*.part），請另選一個。


# issue 48 (operate)
server-full = 伺服器已開啟其允許的最多工作階段數（{ $max }）：請稍後再試。
address-full = 您的位址已開啟本伺服器允許單一位址的最多工作階段數（{ $max }）：請關閉一個或稍後再試。
# issue 48 (access)
web-drop-box = 您可以在此放入檔案，但無法檢視此資料夾的內容。
lang-account = 語言已重設為您帳戶的語言 { $language }。
lang-default-until-login = 語言已重設為預設語言 { $language }；設有自己語言的帳戶會在登入時使用該語言。
# issue 48 (ftps)
tls-reuse-required-account = 資料連線必須重複使用 TLS 工作階段（從不恢復工作階段的用戶端需要在伺服器上設定 tls_reuse_required = false，或為其帳號執行 babelftp user set NAME --tls-reuse optional）。
# issue 49 (find)
web-find-label = 在此資料夾中尋找:
web-find = 尋找
web-found = { $path } 中的「{ $text }」:找到 { $count } 個
web-found-none = 此處及其下層沒有名稱包含「{ $text }」。
web-found-cut = 搜尋提前停止(最多 { $results } 個結果,最多檢視 { $entries } 個項目):請縮小範圍,或在更下層的資料夾中尋找。
web-found-back = 返回資料夾
web-find-too-long = 搜尋文字太長:最多 { $max } 位元組。
# issue 49 (page)
web-login-title = 登入 { $product }
# issue 49 (zip)
web-zip-download = 將所選項目下載為 zip
web-zip-select = 選取
web-zip-none = 請至少勾選一個項目以下載為 zip。
web-preview = 預覽
web-preview-charset = 字元集：{ $charset }
web-preview-cut = 僅顯示前 { $size }。

# issue 49 (upload)
web-skip = 跳至內容
web-col-actions = 操作
web-size-exact = { $bytes } 位元組
web-row-menu = { $name } 的操作
web-uploads = 上傳
web-upload-waiting = 等待中
web-upload-sending = 傳送中
web-upload-done = 完成
web-upload-cancel = 取消
web-upload-cancelled = 已取消
web-upload-failed = 失敗：連線已中斷。
# issue 49 (share)
web-share-gone = 此分享連結已失效：已過期、次數已用完或已被移除。
web-share-network = 無法從您的網路使用此分享連結。
web-share-unavailable = 分享連結需要帳戶庫中的帳戶。
web-share-title = 分享連結
web-share-expires = 有效期限
web-share-never = 永久
web-share-hour = 1 小時
web-share-day = 1 天
web-share-week = 7 天
web-share-month = 30 天
web-share-password = 密碼（選填）
web-share-max = 下載次數上限（選填）
web-share-upload = 上傳連結：其他人可以把檔案放進此資料夾
web-share-create = 建立連結
web-share-created = 已建立分享連結 { $id }。請現在複製：它只會顯示一次。
web-share-locked = 此分享連結需要密碼
web-share-wrong = 密碼錯誤。
web-share-open = 開啟
