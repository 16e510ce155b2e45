# babelftp コマンドラインのメッセージ（日本語）。
# 名前、URL、数値、応答コードは引数であり、翻訳しません。

cli-error = babelftp: エラー: { $error }
cli-bytes-to = { $bytes } バイト -> { $dest }
cli-mirror-summary = コピー { $copied } 件（{ $bytes } バイト）、変更なし { $unchanged } 件、削除 { $deleted } 件
cli-serving = babelftp が { $root } を { $url } で公開しています
cli-connect-hint = 任意の FTP クライアントで "anonymous" としてログインできます（読み取り専用）。例: { $example }
cli-stopped = babelftp を停止しました。
cli-connecting = { $host } に接続しています
cli-refused = サーバーが拒否しました: { $reply }
cli-url-names-no-file = URL にファイル名がありません
cli-bad-url = 不正な URL { $url }
cli-unknown-charset = 不明な文字コード { $charset }
cli-charset-guessed = 文字コード: { $charset }（{ $count } 個の名前から推定）
cli-charset-remembered = 文字コード: { $charset }（このサーバー用に記憶済み）
cli-charset-explicit = 文字コード: { $charset }（--charset で指定）
cli-unknown-command = 不明なコマンド { $command }（help を参照）
cli-needs-argument = { $command } には引数が必要です
cli-creating = { $path } を作成しています
cli-opening = { $path } を開いています
cli-insecure = 警告: --insecure: サーバー証明書を検証しません。ネットワーク経路上の誰でも { $host } になりすまし、パスワードやファイルを含むこのセッションを読み取り・改ざんできます
cli-access-anonymous-off = アクセス: 匿名ログインは拒否
cli-access-anonymous-read = アクセス: 匿名、読み取り専用、ルート全体
cli-access-anonymous-write = アクセス: 匿名、読み書き可、ルート全体
cli-access-user-write = アクセス: ユーザー { $name }、読み書き可、{ $home }
cli-access-user-read = アクセス: ユーザー { $name }、読み取り専用、{ $home }
cli-root-missing = ルートディレクトリ { $path } がありません (作成されるのは既定の ftp-root だけです。作成するか --root を直してください)
cli-bad-listen = --listen { $value }: { $error } (アドレス:ポート、ホスト:ポート、またはポートを指定)
cli-starting = サーバーの起動
cli-nofile-raised = オープンファイル: 上限を { $from } から { $to } に引き上げました
cli-nofile-capped = 警告: オープンファイルの上限は { $limit } です。同時セッションは --max-connections の { $max } ではなく約 { $sessions } までです。ハードリミットを引き上げてください (ulimit -Hn、または systemd ユニットの LimitNOFILE=)
cli-x3-password-prompt = { $host } の { $user } のパスワード:
cli-x3-password-unread = パスワードの読み取り中
cli-x3-passwd-new = 新しいパスワード:
cli-x3-passwd-again = もう一度同じパスワード:
cli-x3-passwd-mismatch = 2 つのパスワードが一致しません。何も出力していません
cli-x3-passwd-empty = パスワードが空です
cli-x3-interrupted = { $command }: 中断しました
cli-x3-reconnecting = 接続の同期が戻らないため、接続し直します
cli-x3-mv-usage = mv には名前が 2 つ必要です: mv 旧名 新名
cli-x3-lcd-failed = lcd { $path }
cli-x3-local-dir = ローカルディレクトリ: { $path }
cli-x3-local-command-failed = ローカルコマンドの実行中
cli-x3-password-no-terminal = { $host } の { $user } のパスワードを尋ねる端末がないため、空のパスワードを送ります（-u { $user }:PASSWORD か ~/.netrc で指定してください）
