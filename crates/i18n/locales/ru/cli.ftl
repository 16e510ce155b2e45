# Сообщения командной строки babelftp, русский язык.
# Имена, URL, числа и коды ответов — это аргументы, они никогда не переводятся.

cli-error = babelftp: ошибка: { $error }
cli-bytes-to = { $bytes } байт -> { $dest }
cli-mirror-summary = скопировано: { $copied } ({ $bytes } байт), без изменений: { $unchanged }, удалено: { $deleted }
cli-serving = babelftp раздаёт { $root } по адресу { $url }
cli-connect-hint = Подключитесь любым FTP-клиентом как "anonymous" (только чтение), например: { $example }
cli-stopped = babelftp остановлен.
cli-connecting = подключение к { $host }
cli-refused = сервер отказал: { $reply }
cli-url-names-no-file = в URL не указан файл
cli-bad-url = неверный URL { $url }
cli-unknown-charset = неизвестная кодировка { $charset }
cli-charset-guessed = кодировка: { $charset } (определена по { $count } именам)
cli-charset-remembered = кодировка: { $charset } (запомнена для этого сервера)
cli-charset-explicit = кодировка: { $charset } (из --charset)
cli-unknown-command = неизвестная команда { $command } (см. help)
cli-needs-argument = команде { $command } нужен аргумент
cli-creating = создание { $path }
cli-opening = открытие { $path }
cli-insecure = внимание: --insecure: сертификат сервера не проверяется; любой на сетевом пути может выдать себя за { $host } и читать или изменять этот сеанс, включая пароли и файлы
cli-access-anonymous-off = доступ: анонимный вход запрещён
cli-access-anonymous-read = доступ: анонимный, только чтение, ко всему корню
cli-access-anonymous-write = доступ: анонимный, чтение и запись, ко всему корню
cli-access-user-write = доступ: пользователь { $name }, чтение и запись, в { $home }
cli-access-user-read = доступ: пользователь { $name }, только чтение, в { $home }
cli-root-missing = корневой каталог { $path } не существует (создаётся только ftp-root по умолчанию; создайте его или исправьте --root)
cli-bad-listen = --listen { $value }: { $error } (укажите АДРЕС:ПОРТ, ХОСТ:ПОРТ или ПОРТ)
cli-starting = запуск сервера
cli-nofile-raised = открытые файлы: предел поднят с { $from } до { $to }
cli-nofile-capped = внимание: открытые файлы ограничены числом { $limit }: примерно { $sessions } сеансов одновременно, а не { $max } из --max-connections; поднимите жёсткий предел (ulimit -Hn или LimitNOFILE= в юните systemd)
cli-x3-password-prompt = Пароль пользователя { $user } на { $host }:
cli-x3-password-unread = при чтении пароля
cli-x3-passwd-new = Новый пароль:
cli-x3-passwd-again = Тот же пароль ещё раз:
cli-x3-passwd-mismatch = пароли не совпадают; ничего не выведено
cli-x3-passwd-empty = пустой пароль
cli-x3-interrupted = { $command }: прервано
cli-x3-reconnecting = соединение не удалось синхронизировать; подключаемся заново
cli-x3-mv-usage = mv нужны два имени: mv СТАРОЕ НОВОЕ
cli-x3-lcd-failed = lcd { $path }
cli-x3-local-dir = локальный каталог: { $path }
cli-x3-local-command-failed = при запуске локальной команды
cli-x3-password-no-terminal = нет терминала, чтобы спросить пароль { $user } на { $host }: отправляется пустой (укажите его через -u { $user }:ПАРОЛЬ или в ~/.netrc)
