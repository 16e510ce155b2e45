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
