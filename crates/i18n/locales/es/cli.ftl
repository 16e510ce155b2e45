# Mensajes de la línea de comandos de babelftp, en español.
# Los nombres, URL, números y códigos de respuesta son argumentos y nunca se traducen.

cli-error = babelftp: error: { $error }
cli-bytes-to = { $bytes } bytes transferidos a { $dest }
cli-mirror-summary = { $copied } copiados ({ $bytes } bytes), { $unchanged } sin cambios, { $deleted } eliminados
cli-serving = babelftp sirve { $root } en { $url }
cli-connect-hint = Conéctese con cualquier cliente FTP como "anonymous" (solo lectura), por ejemplo: { $example }
cli-stopped = babelftp detenido.
cli-connecting = conectando con { $host }
cli-refused = rechazado por el servidor: { $reply }
cli-url-names-no-file = la URL no indica ningún archivo
cli-bad-url = URL no válida { $url }
cli-unknown-charset = juego de caracteres desconocido { $charset }
cli-charset-guessed = juego de caracteres: { $charset } (deducido de { $count } nombres)
cli-charset-remembered = juego de caracteres: { $charset } (recordado para este servidor)
cli-charset-explicit = juego de caracteres: { $charset } (indicado con --charset)
cli-unknown-command = comando desconocido { $command } (pruebe help)
cli-needs-argument = { $command } necesita un argumento
cli-creating = creando { $path }
cli-opening = abriendo { $path }
cli-insecure = aviso: --insecure: no se comprueba el certificado del servidor; cualquiera en la ruta de red puede hacerse pasar por { $host } y leer o cambiar esta sesión, contraseñas y archivos incluidos
cli-access-anonymous-off = acceso: inicios de sesión anónimos rechazados
cli-access-anonymous-read = acceso: anónimo, solo lectura, en toda la raíz
cli-access-anonymous-write = acceso: anónimo, lectura y escritura, en toda la raíz
cli-access-user-write = acceso: usuario { $name }, lectura y escritura, en { $home }
cli-access-user-read = acceso: usuario { $name }, solo lectura, en { $home }
cli-root-missing = el directorio raíz { $path } no existe (solo se crea el ftp-root por omisión; créelo o corrija --root)
cli-bad-listen = --listen { $value }: { $error } (escriba DIRECCIÓN:PUERTO, HOST:PUERTO o un PUERTO)
cli-starting = iniciando el servidor
cli-nofile-raised = archivos abiertos: límite elevado de { $from } a { $to }
cli-nofile-capped = aviso: los archivos abiertos están limitados a { $limit }: unas { $sessions } sesiones a la vez, no las { $max } de --max-connections; eleve el límite duro (ulimit -Hn, o LimitNOFILE= en una unidad systemd)
cli-x3-password-prompt = Contraseña de { $user } en { $host }:
cli-x3-password-unread = al leer la contraseña
cli-x3-passwd-new = Contraseña nueva:
cli-x3-passwd-again = La misma contraseña otra vez:
cli-x3-passwd-mismatch = las dos contraseñas no coinciden; no se ha mostrado nada
cli-x3-passwd-empty = contraseña vacía
cli-x3-interrupted = { $command }: interrumpido
cli-x3-reconnecting = la conexión no volvió a sincronizarse; conectando de nuevo
cli-x3-mv-usage = mv necesita dos nombres: mv VIEJO NUEVO
cli-x3-lcd-failed = lcd { $path }
cli-x3-local-dir = directorio local: { $path }
cli-x3-local-command-failed = al ejecutar la orden local
cli-x3-password-no-terminal = no hay terminal para pedir la contraseña de { $user } en { $host }: se envía una vacía (indíquela con -u { $user }:CONTRASEÑA o en ~/.netrc)
