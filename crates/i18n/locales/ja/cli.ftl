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
cli-x1-bytes-in = { $bytes } バイト -> { $dest }（{ $secs } 秒、{ $rate }）
cli-x1-interrupted = 中断しました
cli-x1-is-directory = { $path } はディレクトリです
cli-x1-resume-larger = 再開できません: { $dest }（{ $have } バイト）は { $src }（{ $size } バイト）より大きいです
cli-x1-complete = { $dest } はすでに完了しています（{ $bytes } バイト）
cli-x1-many-need-dir = 複数のファイルはディレクトリか - に保存します: { $dest } はディレクトリではありません
cli-x1-put-many-need-dir = 複数のファイルは / で終わるディレクトリの URL に送ります
cli-x1-stdin-alone = 標準入力 (-) は単独で、ファイル名を含む URL に送ります
cli-x1-resume-needs-file = -c には標準入出力ではなくファイルが必要です
cli-x1-no-match = { $pattern } に一致するリモートファイルはありません
cli-x1-rm-top = 最上位ディレクトリ "{ $path }" は削除しません
cli-x1-failed-count = { $total } 件中 { $failed } 件が失敗しました
cli-x1-writing = { $path } に書き込み中
cli-x1-writing-stdout = 標準出力に書き込み中
cli-x1-reading-stdin = 標準入力を読み込み中
