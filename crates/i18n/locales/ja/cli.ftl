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
cli-names-guessed = 注意: { $count } 個の名前は UTF-8 ではなく、推測で { $charsets } として表示しています。--charset { $charset } で固定、--raw でバイトのまま表示します
cli-users-reloaded = ユーザーを再読み込みしました: 名前付きユーザー { $count } 人（ログイン済みのセッションはそのまま続きます）
cli-users-reload-failed = ユーザーを再読み込みできませんでした。以前の一覧のままです: { $error }
cli-x2-bad-password = URL 内のパスワードの書き方が正しくありません: その中の / : @ # % と空白はパーセントエンコードしてください (%2F %3A %40 %23 %25 %20)
cli-x2-mv-other-server = { $to } は { $from } のサーバー上にありません: 名前の変更ではファイルを別のサーバーへ移せません (get してから put してください)
cli-x2-mirror-failed = 失敗: { $path }: { $error }
cli-x2-mirror-failures = ミラーは未完了です: { $count } 件失敗しました (それぞれ上に表示)。もう一度実行すると再試行し、途中までのダウンロードを再開します
cli-x2-reconnecting = 接続が失われました。再接続します
cli-x2-check-dropped = { $what }: サーバーが接続を切断しました (残りのチェックは新しい接続で続けます)
cli-x2-check-cleanup-failed = 作業用ディレクトリ { $path } を削除できませんでした: { $error }
cli-metrics-serving = メトリクス: http://{ $addr }/metrics、ヘルスチェック: http://{ $addr }/health
