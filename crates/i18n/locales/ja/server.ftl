# babelftp サーバー応答テキスト、日本語版（原文は英語のメッセージカタログ）。
# 応答コード、FEAT の機能名、パス名はこれらのテキストには含まれません。
# 送信時、テキストの前に引用符付きのパス名が付く場合があります（257 応答）。
# "path-is-current" と "path-created" はその後に続く形で書かれています。

greeting = babelftp の準備ができました。
goodbye = さようなら。
command-ok = コマンドを受け付けました。
need-password = ユーザー名を確認しました。パスワードを入力してください。
logged-in = ログインしました。続行してください。
logged-in-anonymous = 匿名アクセスを許可しました（読み取り専用）。
login-failed = ログインに失敗しました。
home-unavailable = ログインを拒否しました: このアカウントのホームディレクトリが利用できません。管理者に問い合わせてください。
not-logged-in = 先に USER と PASS でログインしてください。
already-logged-in = すでにログインしています。
account-not-needed = このサイトではアカウントは不要です。
bad-sequence = コマンドの順序が正しくありません。
cwd-ok = ディレクトリを変更しました。
path-is-current = が現在のディレクトリです。
path-created = を作成しました。
directory-removed = ディレクトリを削除しました。
file-deleted = ファイルを削除しました。
rename-pending = ファイルが存在します。変更後の名前を指定してください。
renamed = 名前を変更しました。
restart-pending = { $offset } から再開します。転送を開始するには STOR または RETR を送信してください。
type-set = 転送タイプを { $type } に設定しました。
stru-ok = ファイル構造を F に設定しました。
mode-ok = 転送モードを S に設定しました。
superfluous = このコマンドはここでは不要です。
system-type = UNIX Type: L8
features = 対応機能:
end = 終了
help-intro = 次のコマンドが使用できます:
help-end = ヘルプは以上です。
status-intro = ステータス:
status-end = ステータスは以上です。
passive = パッシブモードに入ります
extended-passive = 拡張パッシブモードに入ります
port-ok = アクティブモードのデータ接続アドレスを受け付けました。
port-refused = 拒否しました: データ接続先はクライアント自身のアドレスで、ポート番号は 1024 以上である必要があります。
opening-data = データ接続を開いています。
transfer-complete = 転送が完了しました。
transfer-aborted = 接続が閉じられたため、転送を中止しました。
abort-ok = 中止しました。
no-transfer = 中止する転送はありません。
cant-open-data = データ接続を開けません。
passive-limit = このアドレスが保持しているパッシブポートが多すぎます。転送が終わってから再試行してください。
data-timeout = データ接続がタイムアウトしました。
pasv-needs-ipv4 = PASV は IPv4 でのみ使用できます。EPSV を使用してください。
epsv-all-only = EPSV ALL の後は、データ接続の確立に EPSV しか使用できません。
epsv-all-ok = EPSV ALL を受け付けました。
no-such-file = そのようなファイルまたはディレクトリはありません。
not-a-file = 通常のファイルではありません。
not-a-directory = ディレクトリではありません。
permission-denied = 許可がありません。
file-exists = ファイルが既に存在します。
directory-not-empty = ディレクトリが空ではありません。
no-space = 記憶領域が不足しています。
local-error = 処理中にローカルエラーが発生しました。
unknown-command = コマンドは実装されていません。
syntax-error = 構文エラーです。コマンドを認識できません。
argument-error = パラメーターまたは引数に構文エラーがあります。
parameter-not-implemented = そのパラメーターでのコマンドは実装されていません。
protocol-not-supported = ネットワークプロトコルはサポートされていません。使用可能: (1,2)
line-too-long = コマンド行が長すぎます。
idle-timeout = アイドルタイムアウトのため、制御接続を閉じます。
shutting-down = サーバーをシャットダウンするため、制御接続を閉じます。
too-many-connections = 接続数が多すぎます。しばらくしてから再試行してください。
out-of-resources = リソース (オープンファイルまたはメモリ) が不足しています。制御接続を閉じます。しばらくしてから再試行してください。
utf8-on = UTF-8 パス名を有効にしました。
utf8-off = UTF-8 パス名を無効にしました: クライアントの従来の文字コードを使用します。
option-unknown = 認識できないオプションです。
lang-ok = 言語を { $language } に設定しました。
lang-default = 言語を既定の { $language } に戻しました。
lang-unsupported = サポートされていない言語です。
lang-malformed = 言語タグの形式が正しくありません。
host-ok = ホストを受け付けました。
host-unknown = 不明なホストです。
host-after-login = HOST はログイン前に送信する必要があります。
unique-name = 転送を開始します。一意のファイル名:
name-untranslatable = この名前はこのディレクトリの文字コードでは表記できません。
name-not-in-charset = この名前はサーバーの文字コード ({ $charset }) では保存できません。
language-name = 日本語

# FTPS (RFC 4217)
auth-ok = AUTH TLS を受け付けました。TLS ハンドシェイクを開始します。
auth-already = 制御接続はすでに保護されています。
auth-unsupported = サポートされていないセキュリティ機構です。AUTH TLS を使用してください。
prot-ok = データ保護レベルを { $level } に設定しました。
prot-unsupported = サポートされていない保護レベルです。PROT C または PROT P を使用してください。
ccc-refused = コマンドチャネルを平文に戻すことは許可されていません。
tls-required = TLS が必要です。先に AUTH TLS を送信してください。
prot-required = データ接続は保護されている必要があります。先に PROT P を送信してください。
tls-reuse-required = データ接続では TLS セッションの再利用が必要です（セッションを再開しないクライアントには、サーバーで tls_reuse_required = false の設定が必要です）。
tls-data-failed = データ接続での TLS ネゴシエーションに失敗しました。
chmod-ok = SITE CHMOD を実行しました。
bad-mode = 使い方: SITE CHMOD <モード> <パス> (モードは 0〜777 の8進数)。
site-help = SITE コマンド:
site-unknown = 不明な SITE コマンドです (一覧は SITE HELP)。
storage-unsupported = このストレージではできません（オブジェクトストレージには追記、位置指定の書き込み、パーミッションがありません）。
policy-denied = 許可がありません: このアカウントはここで「{ $perm }」の権限を持っていません。
policy-denied-inside = 許可がありません: この内側のフォルダーには「{ $perm }」の権限がなく、一緒に移動または削除されてしまいます。
banned = お使いのアドレスからのログイン失敗が多すぎます。しばらくしてから再試行してください。
user-sessions-limit = このアカウントは許可された数のセッションをすでに開いています。1 つ閉じてからやり直してください。
quota-exceeded = クォータ超過: このアップロードはアカウントの上限を超えるため、ファイルは元のままです。
quota-entries = クォータ超過: このアカウントはこれ以上ファイルやフォルダーを持てません。
quota-status = このアカウントのクォータ:
quota-bytes = 容量: { $limit } 中 { $used } 使用
quota-files = ファイル: { $limit } 中 { $used }
quota-no-limit = 無制限
quota-none = このアカウントにはクォータがありません。
ended-by-admin = 管理者がこのセッションを終了しました。
web-bad-path = このアドレスはこのサーバーのパスではありません。
web-bad-method = このメソッドはここでは使えません。
web-csrf = フォームの有効期限が切れたか、別のサイトから送られました。ページを再読み込みしてやり直してください。
web-bad-action = 不明な操作です。
web-bad-form = フォームを読み取れませんでした。
web-login-failed = ログインに失敗しました。ユーザー名またはパスワードが違います。
web-unavailable = サーバーは今応答できません。後でやり直してください。
web-not-found = そのファイルまたはフォルダーはありません。
web-denied = ここでそれを行う権限がありません。
web-denied-inside = できません: 中にあるフォルダー「{ $path }」は「{ $perm }」を許可していません。
web-exists = その名前のファイルまたはフォルダーは既にあります。
web-not-empty = フォルダーが空ではありません。
web-bad-name = その名前はここでは使えません。
web-quota = クォータ超過：このアップロードはアカウントの上限を超えます。何も保存されていません。
web-full = ストレージが一杯です。何も保存されていません。
web-busy = このアカウントは開けるだけのセッションを開いています。1 つ閉じてからやり直してください。
web-unsupported = ストレージがこの操作に対応していません。
web-signed-in = { $user } としてログイン中
web-logout = ログアウト
web-login = ログイン
web-language = 言語
web-language-apply = 適用
web-upload-label = ファイルをアップロード:
web-upload = アップロード
web-mkdir-label = 新しいフォルダー:
web-mkdir = 作成
web-paged = このフォルダーは大きいため、ストレージの順に 1 ページ { $count } 件ずつ表示しています（{ $page } ページ目）。並べ替えはページ内で行われます。
web-copy-ftp = FTP リンクをコピー
web-copied = コピーしました
web-col-name = 名前
web-col-size = サイズ
web-col-time = 更新日時
web-details = 詳細
web-empty = このフォルダーは空です。
web-page-prev = 前のページ
web-page-next = 次のページ
web-link-web = Web リンク
web-link-ftp = FTP リンク
web-download = ダウンロード
web-rename-label = 新しい名前:
web-rename = 名前を変更
web-delete = 削除
web-user = ユーザー名
web-password = パスワード
web-stalled = アップロードが届かなくなりました。何も保存されていません。

# issue 45: server
reserved-name = この名前はサーバーのアップロード用一時ファイル (.babelftp-*.part) 用に予約されています。別の名前を選んでください。
web-reserved-name = その名前はサーバーのアップロード用一時ファイル (.babelftp-*.part) 用に予約されています。別の名前を選んでください。


# issue 48 (operate)
server-full = サーバーは許可された数（{ $max }）のセッションをすでに開いています。しばらくしてから再試行してください。
address-full = お使いのアドレスは、このサーバーが 1 アドレスに許可する数（{ $max }）のセッションをすでに開いています。どれかを閉じるか、しばらくしてから再試行してください。
# issue 48 (access)
web-drop-box = ここにはファイルを置けますが、このフォルダーの中身は見られません。
lang-account = 言語をアカウントの { $language } に戻しました。
lang-default-until-login = 言語を既定の { $language } に戻しました。独自の言語を持つアカウントはログイン時にその言語になります。
# issue 48 (ftps)
tls-reuse-required-account = データ接続では TLS セッションの再利用が必要です（セッションを再開しないクライアントには、サーバーで tls_reuse_required = false を設定するか、そのアカウントに babelftp user set NAME --tls-reuse optional を設定してください）。
# issue 49 (find)
web-find-label = このフォルダー内を検索:
web-find = 検索
web-found = { $path } 内の「{ $text }」: { $count } 件
web-found-none = ここにもその下にも「{ $text }」を含む名前はありません。
web-found-cut = 検索は途中で打ち切られました(結果は最大 { $results } 件、調べる項目は最大 { $entries } 件): 条件を絞るか、下の階層のフォルダーで検索してください。
web-found-back = フォルダーに戻る
web-find-too-long = 検索文字列が長すぎます: 最大 { $max } バイトです。
# issue 49 (page)
web-login-title = { $product } にログイン
# issue 49 (zip)
web-zip-download = 選択した項目を zip でダウンロード
web-zip-select = 選択
web-zip-none = zip でダウンロードする項目を 1 つ以上選んでください。
web-preview = プレビュー
web-preview-charset = 文字コード: { $charset }
web-preview-cut = 最初の { $size } だけを表示しています。

# issue 49 (upload)
web-skip = 本文へ移動
web-col-actions = 操作
web-size-exact = { $bytes } バイト
web-row-menu = { $name } の操作
web-uploads = アップロード
web-upload-waiting = 待機中
web-upload-sending = 送信中
web-upload-done = 完了
web-upload-cancel = キャンセル
web-upload-cancelled = キャンセルしました
web-upload-failed = 失敗: 接続が切れました。
# issue 49 (share)
web-share-gone = この共有リンクは使えなくなりました（期限切れ、回数の上限、または削除）。
web-share-network = この共有リンクはお使いのネットワークからは使えません。
web-share-unavailable = 共有リンクにはアカウントストアのアカウントが必要です。
web-share-title = 共有リンク
web-share-expires = 有効期限
web-share-never = 無期限
web-share-hour = 1 時間
web-share-day = 1 日
web-share-week = 7 日
web-share-month = 30 日
web-share-password = パスワード（任意）
web-share-max = ダウンロード回数の上限（任意）
web-share-upload = アップロード用リンク：他の人がこのフォルダーにファイルを置けます
web-share-create = リンクを作成
web-share-created = 共有リンク { $id } を作成しました。今コピーしてください。表示は一度だけです。
web-share-locked = この共有リンクにはパスワードが必要です
web-share-wrong = パスワードが違います。
web-share-open = 開く
