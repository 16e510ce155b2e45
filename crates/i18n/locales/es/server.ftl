# Textos de respuesta del servidor babelftp, en español.
# Los códigos de respuesta, los nombres FEAT y las rutas nunca forman parte de estos textos.
# En la transmisión, un texto puede ir precedido de una ruta entre comillas (respuestas 257);
# "path-is-current" y "path-created" están redactados para ir a continuación de ella.

greeting = babelftp listo.
goodbye = Adiós.
command-ok = Comando correcto.
need-password = Usuario correcto, se necesita la contraseña.
logged-in = Usuario autenticado, puede continuar.
logged-in-anonymous = Acceso anónimo concedido, solo lectura.
login-failed = Inicio de sesión incorrecto.
home-unavailable = Inicio de sesión rechazado: el directorio personal de esta cuenta no está disponible; consulte al administrador.
not-logged-in = Inicie sesión primero con USER y PASS.
already-logged-in = Ya ha iniciado sesión.
account-not-needed = No se necesita cuenta en este sitio.
bad-sequence = Secuencia de comandos incorrecta.
cwd-ok = Directorio cambiado.
path-is-current = es el directorio actual.
path-created = creado.
directory-removed = Directorio eliminado.
file-deleted = Archivo eliminado.
rename-pending = El archivo existe, a la espera del nombre de destino.
renamed = Cambio de nombre realizado.
restart-pending = Reanudando en { $offset }. Envíe STOR o RETR para iniciar la transferencia.
type-set = Tipo establecido en { $type }.
stru-ok = Estructura establecida en F.
mode-ok = Modo establecido en S.
superfluous = Comando innecesario aquí.
system-type = UNIX Type: L8
features = Características:
end = Fin
help-intro = Se reconocen los siguientes comandos:
help-end = Fin de la ayuda.
status-intro = Estado:
status-end = Fin del estado.
passive = Entrando en modo pasivo
extended-passive = Entrando en modo pasivo extendido
port-ok = Dirección de conexión de datos activa aceptada.
port-refused = Rechazado: la dirección de datos debe ser la suya, en un puerto 1024 o superior.
opening-data = Abriendo conexión de datos.
transfer-complete = Transferencia completada.
transfer-aborted = Conexión cerrada; transferencia cancelada.
abort-ok = Cancelación realizada.
no-transfer = No hay ninguna transferencia que cancelar.
cant-open-data = No se puede abrir la conexión de datos.
passive-limit = Demasiados puertos pasivos ocupados desde su dirección; inténtelo de nuevo cuando termine una transferencia.
data-timeout = Tiempo de espera agotado en la conexión de datos.
pasv-needs-ipv4 = PASV solo funciona sobre IPv4; use EPSV.
epsv-all-only = Tras EPSV ALL, solo EPSV puede establecer conexiones de datos.
epsv-all-ok = EPSV ALL aceptado.
no-such-file = No existe el archivo o directorio.
not-a-file = No es un archivo normal.
not-a-directory = No es un directorio.
permission-denied = Permiso denegado.
file-exists = El archivo ya existe.
directory-not-empty = El directorio no está vacío.
no-space = Espacio de almacenamiento insuficiente.
local-error = Error local durante el procesamiento.
unknown-command = Comando no implementado.
syntax-error = Error de sintaxis, comando no reconocido.
argument-error = Error de sintaxis en los parámetros o argumentos.
parameter-not-implemented = Comando no implementado para ese parámetro.
protocol-not-supported = Protocolo de red no admitido, use (1,2)
line-too-long = Línea de comandos demasiado larga.
idle-timeout = Tiempo de inactividad agotado, cerrando la conexión de control.
shutting-down = El servidor se está apagando, cerrando la conexión de control.
too-many-connections = Demasiadas conexiones, inténtelo de nuevo más tarde.
out-of-resources = Recursos agotados (archivos abiertos o memoria), se cierra la conexión de control; inténtelo de nuevo más tarde.
utf8-on = Rutas en UTF-8 activadas.
utf8-off = Rutas en UTF-8 desactivadas: se usa el juego de caracteres heredado del cliente.
option-unknown = Opción no reconocida.
lang-ok = Idioma establecido en { $language }.
lang-default = Idioma restablecido al predeterminado, { $language }.
lang-unsupported = Idioma no admitido.
lang-malformed = Etiqueta de idioma mal formada.
host-ok = Host aceptado.
host-unknown = Host desconocido.
host-after-login = HOST debe enviarse antes de iniciar sesión.
unique-name = Iniciando transferencia; nombre de archivo único:
name-untranslatable = El nombre no se puede escribir en el juego de caracteres de este directorio.
name-not-in-charset = El nombre no se puede guardar en el juego de caracteres del servidor ({ $charset }).
language-name = Español

# FTPS (RFC 4217)
auth-ok = AUTH TLS aceptado: iniciando la negociación TLS.
auth-already = La conexión de control ya está protegida.
auth-unsupported = Mecanismo de seguridad no admitido; use AUTH TLS.
prot-ok = Nivel de protección de datos establecido en { $level }.
prot-unsupported = Nivel de protección no admitido; use PROT C o PROT P.
ccc-refused = No se permite devolver el canal de comandos a texto sin cifrar.
tls-required = Se requiere TLS: envíe primero AUTH TLS.
prot-required = Las conexiones de datos deben estar protegidas: envíe primero PROT P.
tls-reuse-required = Se requiere reutilizar la sesión TLS en la conexión de datos (los clientes que nunca reanudan sesiones necesitan tls_reuse_required = false en el servidor).
tls-data-failed = Falló la negociación TLS en la conexión de datos.
chmod-ok = Orden SITE CHMOD ejecutada.
bad-mode = Uso: SITE CHMOD <modo> <ruta>, el modo en octal de 0 a 777.
site-help = Órdenes SITE:
site-unknown = Orden SITE desconocida (SITE HELP las enumera).
storage-unsupported = No es posible en este almacenamiento (un almacén de objetos no permite añadir, escribir en una posición ni permisos).
policy-denied = Permiso denegado: esta cuenta no tiene aquí el derecho «{ $perm }».
policy-denied-inside = Permiso denegado: esta carpeta interior no tiene el derecho «{ $perm }» y se movería o eliminaría con ella.
banned = Demasiados inicios de sesión fallidos desde su dirección: inténtelo más tarde.
user-sessions-limit = Esta cuenta ya tiene abiertas todas las sesiones permitidas: cierre una y vuelva a intentarlo.
quota-exceeded = Cuota superada: esta subida pasaría el límite de la cuenta; el archivo queda como estaba.
quota-entries = Cuota superada: esta cuenta no puede tener más archivos ni carpetas.
quota-status = Cuota de esta cuenta:
quota-bytes = Espacio: { $used } usados de { $limit }
quota-files = Archivos: { $used } de { $limit }
quota-no-limit = sin límite
quota-none = Esta cuenta no tiene cuota.
ended-by-admin = Un administrador ha terminado esta sesión.
web-bad-path = Esta dirección no es una ruta de este servidor.
web-bad-method = Este método no se admite aquí.
web-csrf = El formulario ha caducado o viene de otro sitio: recargue la página e inténtelo de nuevo.
web-bad-action = Acción desconocida.
web-bad-form = No se pudo leer el formulario.
web-login-failed = Inicio de sesión fallido: usuario o contraseña incorrectos.
web-unavailable = El servidor no puede responder ahora; inténtelo más tarde.
web-not-found = No existe ese archivo o carpeta.
web-denied = No tiene permiso para hacer eso aquí.
web-denied-inside = No puede hacer eso: la carpeta «{ $path }» que contiene no permite «{ $perm }».
web-exists = Ya existe un archivo o carpeta con ese nombre.
web-not-empty = La carpeta no está vacía.
web-bad-name = Ese nombre no se puede usar aquí.
web-quota = Cuota superada: esta subida pasaría el límite de la cuenta; no se guardó nada.
web-full = El almacenamiento está lleno; no se guardó nada.
web-busy = Esta cuenta tiene tantas sesiones abiertas como puede: cierre una e inténtelo de nuevo.
web-unsupported = El almacenamiento no admite esto.
web-signed-in = Sesión iniciada como { $user }
web-logout = Cerrar sesión
web-login = Iniciar sesión
web-language = Idioma
web-language-apply = Aplicar
web-upload-label = Subir archivos:
web-upload = Subir
web-mkdir-label = Nueva carpeta:
web-mkdir = Crear
web-paged = Esta carpeta es grande: { $count } entradas por página, en el orden del almacenamiento (página { $page }); la ordenación se aplica dentro de la página.
web-copy-ftp = Copiar enlace FTP
web-copied = Copiado
web-col-name = Nombre
web-col-size = Tamaño
web-col-time = Modificado
web-details = detalles
web-empty = Esta carpeta está vacía.
web-page-prev = Página anterior
web-page-next = Página siguiente
web-link-web = Enlace web
web-link-ftp = Enlace FTP
web-download = Descargar
web-rename-label = Nuevo nombre:
web-rename = Renombrar
web-delete = Eliminar
web-user = Nombre de usuario
web-password = Contraseña
web-stalled = La subida dejó de llegar; no se guardó nada.

# issue 45: server
reserved-name = Este nombre está reservado para los archivos temporales de subida del servidor (.babelftp-*.part); elija otro.
web-reserved-name = Ese nombre está reservado para los archivos temporales de subida del servidor (.babelftp-*.part); elija otro.


# issue 48 (operate)
server-full = El servidor tiene abiertas tantas sesiones como permite ({ $max }): inténtelo de nuevo más tarde.
address-full = Su dirección tiene abiertas tantas sesiones como este servidor permite desde una dirección ({ $max }): cierre una o inténtelo de nuevo más tarde.
# issue 48 (access)
web-drop-box = Puede dejar archivos aquí, pero no ver lo que contiene esta carpeta.
lang-account = Idioma restablecido al de su cuenta, { $language }.
lang-default-until-login = Idioma restablecido al predeterminado, { $language }; una cuenta con idioma propio lo recibe al iniciar sesión.
# issue 48 (ftps)
tls-reuse-required-account = Se requiere reutilizar la sesión TLS en la conexión de datos (los clientes que nunca reanudan sesiones necesitan tls_reuse_required = false en el servidor, o babelftp user set NOMBRE --tls-reuse optional para su cuenta).
# issue 49 (find)
web-find-label = Buscar en esta carpeta:
web-find = Buscar
web-found = «{ $text }» en { $path }: { $count } encontrados
web-found-none = Ningún nombre aquí ni debajo contiene «{ $text }».
web-found-cut = La búsqueda se detuvo antes de terminar (como máximo { $results } resultados y { $entries } entradas examinadas): acótela o busque en una carpeta más abajo.
web-found-back = Volver a la carpeta
web-find-too-long = El texto de búsqueda es demasiado largo: como máximo { $max } bytes.
# issue 49 (page)
web-login-title = Iniciar sesión en { $product }
# issue 49 (zip)
web-zip-download = Descargar la selección como zip
web-zip-select = Seleccionar
web-zip-none = Marque al menos una entrada para descargarla como zip.
web-preview = Vista previa
web-preview-charset = Juego de caracteres: { $charset }
web-preview-cut = Solo se muestran los primeros { $size }.

# issue 49 (upload)
web-skip = Saltar al contenido
web-col-actions = Acciones
web-size-exact = { $bytes } bytes
web-row-menu = Acciones para { $name }
web-uploads = Subidas
web-upload-waiting = En espera
web-upload-sending = Enviando
web-upload-done = Hecho
web-upload-cancel = Cancelar
web-upload-cancelled = Cancelado
web-upload-failed = Error: se perdió la conexión.
# issue 49 (share)
web-share-gone = Este enlace compartido ya no funciona: caducó, se agotó o se eliminó.
web-share-network = Este enlace compartido no se puede usar desde su red.
web-share-unavailable = Los enlaces compartidos necesitan una cuenta del almacén de cuentas.
web-share-title = Enlace compartido
web-share-expires = Caduca tras
web-share-never = nunca
web-share-hour = 1 hora
web-share-day = 1 día
web-share-week = 7 días
web-share-month = 30 días
web-share-password = Contraseña (opcional)
web-share-max = Límite de descargas (opcional)
web-share-upload = Un enlace de subida: otros dejan archivos en esta carpeta
web-share-create = Crear enlace
web-share-created = Enlace compartido { $id } creado. Cópielo ahora: solo se muestra una vez.
web-share-locked = Este enlace compartido necesita una contraseña
web-share-wrong = Contraseña incorrecta.
web-share-open = Abrir
