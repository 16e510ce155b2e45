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
cli-names-guessed = примечание: { $count } имён не в UTF-8 и показаны как { $charsets } по догадке; --charset { $charset } закрепляет кодировку, --raw показывает байты
cli-users-reloaded = пользователи перечитаны: { $count } именованных пользователей (уже вошедшие сеансы продолжаются)
cli-users-reload-failed = пользователи не перечитаны, остаётся прежний список: { $error }
cli-x2-bad-password = пароль в URL записан неправильно: закодируйте в нём / : @ # % и пробелы через процент (%2F %3A %40 %23 %25 %20)
cli-x2-mv-other-server = { $to } находится не на сервере { $from }: переименование не может перенести файл на другой сервер (сделайте get, затем put)
cli-x2-mirror-failed = ошибка: { $path }: { $error }
cli-x2-mirror-failures = зеркалирование не завершено: ошибок: { $count } (каждая названа выше); запустите снова, чтобы повторить их и докачать частично загруженные файлы
cli-x2-reconnecting = соединение потеряно; подключаемся снова
cli-x2-check-dropped = { $what }: сервер разорвал соединение (проверки продолжаются через новое)
cli-x2-check-cleanup-failed = не удалось удалить временный каталог { $path }: { $error }
cli-metrics-serving = метрики: http://{ $addr }/metrics, состояние: http://{ $addr }/health
