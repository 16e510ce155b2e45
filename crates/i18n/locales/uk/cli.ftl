# Повідомлення командного рядка babelftp, українська мова.
# Імена, URL, числа й коди відповідей — це аргументи, їх ніколи не перекладають.

cli-error = babelftp: помилка: { $error }
cli-bytes-to = { $bytes } байтів -> { $dest }
cli-mirror-summary = скопійовано: { $copied } ({ $bytes } байтів), без змін: { $unchanged }, видалено: { $deleted }
cli-serving = babelftp роздає { $root } за адресою { $url }
cli-connect-hint = Під’єднайтеся будь-яким FTP-клієнтом як "anonymous" (лише читання), наприклад: { $example }
cli-stopped = babelftp зупинено.
cli-connecting = з’єднання з { $host }
cli-refused = сервер відмовив: { $reply }
cli-url-names-no-file = в URL не вказано файл
cli-bad-url = неправильний URL { $url }
cli-unknown-charset = невідоме кодування { $charset }
cli-charset-guessed = кодування: { $charset } (визначено за { $count } іменами)
cli-charset-remembered = кодування: { $charset } (запам’ятоване для цього сервера)
cli-charset-explicit = кодування: { $charset } (з --charset)
cli-unknown-command = невідома команда { $command } (див. help)
cli-needs-argument = команді { $command } потрібен аргумент
cli-creating = створення { $path }
cli-opening = відкриття { $path }
cli-insecure = увага: --insecure: сертифікат сервера не перевіряється; будь-хто на мережевому шляху може видати себе за { $host } і читати або змінювати цей сеанс, разом із паролями та файлами
cli-access-anonymous-off = доступ: анонімний вхід заборонено
cli-access-anonymous-read = доступ: анонімний, лише читання, до всього кореня
cli-access-anonymous-write = доступ: анонімний, читання і запис, до всього кореня
cli-access-user-write = доступ: користувач { $name }, читання і запис, у { $home }
cli-access-user-read = доступ: користувач { $name }, лише читання, у { $home }
cli-root-missing = кореневий каталог { $path } не існує (створюється лише типовий ftp-root; створіть його або виправте --root)
cli-bad-listen = --listen { $value }: { $error } (вкажіть АДРЕСА:ПОРТ, ХОСТ:ПОРТ або ПОРТ)
cli-starting = запуск сервера
cli-nofile-raised = відкриті файли: межу піднято з { $from } до { $to }
cli-nofile-capped = увага: відкриті файли обмежено числом { $limit }: приблизно { $sessions } сеансів одночасно, а не { $max } з --max-connections; підніміть жорстку межу (ulimit -Hn або LimitNOFILE= у юніті systemd)
cli-x3-password-prompt = Пароль користувача { $user } на { $host }:
cli-x3-password-unread = під час читання пароля
cli-x3-passwd-new = Новий пароль:
cli-x3-passwd-again = Той самий пароль ще раз:
cli-x3-passwd-mismatch = паролі не збігаються; нічого не виведено
cli-x3-passwd-empty = порожній пароль
cli-x3-interrupted = { $command }: перервано
cli-x3-reconnecting = з'єднання не вдалося синхронізувати; підключаємося знову
cli-x3-mv-usage = mv потребує двох імен: mv СТАРЕ НОВЕ
cli-x3-lcd-failed = lcd { $path }
cli-x3-local-dir = локальний каталог: { $path }
cli-x3-local-command-failed = під час запуску локальної команди
cli-x3-password-no-terminal = немає термінала, щоб запитати пароль { $user } на { $host }: надсилається порожній (вкажіть його через -u { $user }:ПАРОЛЬ або в ~/.netrc)
