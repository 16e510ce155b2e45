# Textos de resposta do servidor babelftp, em português do Brasil.
# Códigos de resposta, nomes FEAT e caminhos nunca fazem parte destes textos.
# Na transmissão, um texto pode ser precedido por um caminho entre aspas (respostas 257);
# "path-is-current" e "path-created" foram escritos para vir logo depois dele.

greeting = babelftp pronto.
goodbye = Até logo.
command-ok = Comando executado.
need-password = Nome de usuário aceito, informe a senha.
logged-in = Usuário conectado, prossiga.
logged-in-anonymous = Acesso anônimo concedido, somente leitura.
login-failed = Login incorreto.
home-unavailable = Login recusado: o diretório pessoal desta conta não está disponível; fale com o administrador.
not-logged-in = Faça login primeiro com USER e PASS.
already-logged-in = Login já efetuado.
account-not-needed = Nenhuma conta é necessária neste site.
bad-sequence = Sequência de comandos incorreta.
cwd-ok = Diretório alterado.
path-is-current = é o diretório atual.
path-created = criado.
directory-removed = Diretório removido.
file-deleted = Arquivo excluído.
rename-pending = O arquivo existe, aguardando o nome de destino.
renamed = Renomeação concluída.
restart-pending = Retomando a partir de { $offset }. Envie STOR ou RETR para iniciar a transferência.
type-set = Tipo definido como { $type }.
stru-ok = Estrutura definida como F.
mode-ok = Modo definido como S.
superfluous = Comando desnecessário aqui.
system-type = UNIX Type: L8
features = Recursos:
end = Fim
help-intro = Os seguintes comandos são reconhecidos:
help-end = Fim da ajuda.
status-intro = Estado:
status-end = Fim do estado.
passive = Entrando no modo passivo
extended-passive = Entrando no modo passivo estendido
port-ok = Endereço de conexão de dados ativa aceito.
port-refused = Recusado: o endereço de dados deve ser o seu próprio, em uma porta 1024 ou superior.
opening-data = Abrindo conexão de dados.
transfer-complete = Transferência concluída.
transfer-aborted = Conexão encerrada; transferência interrompida.
abort-ok = Interrupção concluída.
no-transfer = Nenhuma transferência para interromper.
cant-open-data = Não foi possível abrir a conexão de dados.
passive-limit = Portas passivas demais ocupadas a partir do seu endereço; tente novamente quando uma transferência terminar.
data-timeout = Tempo esgotado na conexão de dados.
pasv-needs-ipv4 = PASV funciona somente em IPv4; use EPSV.
epsv-all-only = Após EPSV ALL, somente EPSV pode estabelecer conexões de dados.
epsv-all-ok = EPSV ALL aceito.
no-such-file = Arquivo ou diretório inexistente.
not-a-file = Não é um arquivo comum.
not-a-directory = Não é um diretório.
permission-denied = Permissão negada.
file-exists = O arquivo já existe.
directory-not-empty = O diretório não está vazio.
no-space = Espaço de armazenamento insuficiente.
local-error = Erro local no processamento.
unknown-command = Comando não implementado.
syntax-error = Erro de sintaxe, comando não reconhecido.
argument-error = Erro de sintaxe nos parâmetros ou argumentos.
parameter-not-implemented = Comando não implementado para esse parâmetro.
protocol-not-supported = Protocolo de rede não suportado, use (1,2)
line-too-long = Linha de comando muito longa.
idle-timeout = Tempo de inatividade esgotado, encerrando a conexão de controle.
shutting-down = Servidor sendo desligado, encerrando a conexão de controle.
too-many-connections = Muitas conexões, tente novamente mais tarde.
out-of-resources = Recursos esgotados (arquivos abertos ou memória), fechando a conexão de controle; tente novamente mais tarde.
utf8-on = Caminhos em UTF-8 ativados.
utf8-off = Caminhos em UTF-8 desativados: usando o conjunto de caracteres legado do cliente.
option-unknown = Opção não reconhecida.
lang-ok = Idioma definido como { $language }.
lang-default = Idioma redefinido para o padrão, { $language }.
lang-unsupported = Idioma não suportado.
lang-malformed = Tag de idioma malformada.
host-ok = Host aceito.
host-unknown = Host desconhecido.
host-after-login = HOST deve ser enviado antes do login.
unique-name = Iniciando transferência; nome de arquivo único:
name-untranslatable = O nome não pode ser escrito no conjunto de caracteres deste diretório.
name-not-in-charset = O nome não pode ser armazenado no conjunto de caracteres do servidor ({ $charset }).
language-name = Português (Brasil)

# FTPS (RFC 4217)
auth-ok = AUTH TLS aceito: iniciando o handshake TLS.
auth-already = A conexão de controle já está protegida.
auth-unsupported = Mecanismo de segurança não suportado; use AUTH TLS.
prot-ok = Nível de proteção de dados definido como { $level }.
prot-unsupported = Nível de proteção não suportado; use PROT C ou PROT P.
ccc-refused = Não é permitido retornar o canal de comandos a texto sem criptografia.
tls-required = TLS obrigatório: envie AUTH TLS primeiro.
prot-required = As conexões de dados devem ser protegidas: envie PROT P primeiro.
tls-reuse-required = É necessário reutilizar a sessão TLS na conexão de dados (clientes que nunca retomam sessões precisam de tls_reuse_required = false no servidor).
tls-data-failed = Falha na negociação TLS na conexão de dados.
chmod-ok = Comando SITE CHMOD executado.
bad-mode = Uso: SITE CHMOD <modo> <caminho>, o modo em octal de 0 a 777.
site-help = Comandos SITE:
site-unknown = Comando SITE desconhecido (SITE HELP os lista).
storage-unsupported = Não é possível neste armazenamento (um armazenamento de objetos não tem anexação, escrita em posição nem permissões).
policy-denied = Permissão negada: esta conta não tem aqui o direito “{ $perm }”.
policy-denied-inside = Permissão negada: esta pasta interna não tem o direito “{ $perm }” e seria movida ou removida junto.
banned = Muitas falhas de login a partir do seu endereço: tente novamente mais tarde.
user-sessions-limit = Esta conta já tem abertas todas as sessões permitidas: feche uma e tente de novo.
quota-exceeded = Cota excedida: este envio passaria o limite da conta; o arquivo ficou como estava.
quota-entries = Cota excedida: esta conta não pode ter mais arquivos nem pastas.
quota-status = Cota desta conta:
quota-bytes = Espaço: { $used } usados de { $limit }
quota-files = Arquivos: { $used } de { $limit }
quota-no-limit = sem limite
quota-none = Esta conta não tem cota.
ended-by-admin = Um administrador encerrou esta sessão.
web-bad-path = Este endereço não é um caminho deste servidor.
web-bad-method = Este método não é suportado aqui.
web-csrf = O formulário expirou ou veio de outro site: recarregue a página e tente de novo.
web-bad-action = Ação desconhecida.
web-bad-form = Não foi possível ler o formulário.
web-login-failed = Falha no login: usuário ou senha incorretos.
web-unavailable = O servidor não pode responder agora; tente mais tarde.
web-not-found = Arquivo ou pasta inexistente.
web-denied = Você não tem permissão para fazer isso aqui.
web-denied-inside = Você não pode fazer isso: a pasta “{ $path }” dentro dela não permite “{ $perm }”.
web-exists = Já existe um arquivo ou pasta com esse nome.
web-not-empty = A pasta não está vazia.
web-bad-name = Esse nome não pode ser usado aqui.
web-quota = Cota excedida: este envio passaria do limite da conta; nada foi mantido.
web-full = O armazenamento está cheio; nada foi mantido.
web-busy = Esta conta já tem todas as sessões abertas que pode: feche uma e tente de novo.
web-unsupported = O armazenamento não suporta isso.
web-signed-in = Conectado como { $user }
web-logout = Sair
web-login = Entrar
web-language = Idioma
web-language-apply = Aplicar
web-upload-label = Enviar arquivos:
web-upload = Enviar
web-mkdir-label = Nova pasta:
web-mkdir = Criar
web-paged = Esta pasta é grande: { $count } entradas por página, na ordem do armazenamento (página { $page }); a ordenação vale dentro da página.
web-copy-ftp = Copiar link FTP
web-copied = Copiado
web-col-name = Nome
web-col-size = Tamanho
web-col-time = Modificado
web-details = detalhes
web-empty = Esta pasta está vazia.
web-page-prev = Página anterior
web-page-next = Próxima página
web-link-web = Link web
web-link-ftp = Link FTP
web-download = Baixar
web-rename-label = Novo nome:
web-rename = Renomear
web-delete = Excluir
web-user = Nome de usuário
web-password = Senha
web-stalled = O envio parou de chegar; nada foi salvo.

# issue 45: server
reserved-name = Este nome é reservado aos arquivos temporários de envio do servidor (.babelftp-*.part); escolha outro.
web-reserved-name = Esse nome é reservado aos arquivos temporários de envio do servidor (.babelftp-*.part); escolha outro.


# issue 48 (operate)
server-full = O servidor tem abertas tantas sessões quanto permite ({ $max }): tente novamente mais tarde.
address-full = Seu endereço tem abertas tantas sessões quanto este servidor permite por endereço ({ $max }): feche uma ou tente novamente mais tarde.
# issue 48 (access)
web-drop-box = Você pode enviar arquivos para cá, mas não ver o que esta pasta contém.
lang-account = Idioma redefinido para o da sua conta, { $language }.
lang-default-until-login = Idioma redefinido para o padrão, { $language }; uma conta com idioma próprio o recebe ao entrar.
# issue 48 (ftps)
tls-reuse-required-account = É necessário reutilizar a sessão TLS na conexão de dados (clientes que nunca retomam sessões precisam de tls_reuse_required = false no servidor, ou babelftp user set NOME --tls-reuse optional para a conta deles).
# issue 49 (find)
web-find-label = Procurar nesta pasta:
web-find = Procurar
web-found = “{ $text }” em { $path }: { $count } encontrados
web-found-none = Nenhum nome aqui ou abaixo contém “{ $text }”.
web-found-cut = A busca parou antes do fim (no máximo { $results } resultados e { $entries } entradas examinadas): refine-a ou procure em uma pasta mais abaixo.
web-found-back = Voltar à pasta
web-find-too-long = O texto da busca é longo demais: no máximo { $max } bytes.
# issue 49 (page)
web-login-title = Entrar no { $product }
# issue 49 (zip)
web-zip-download = Baixar a seleção como zip
web-zip-select = Selecionar
web-zip-none = Marque pelo menos um item para baixar como zip.
web-preview = Pré-visualizar
web-preview-charset = Conjunto de caracteres: { $charset }
web-preview-cut = Somente os primeiros { $size } são mostrados.

# issue 49 (upload)
web-skip = Pular para o conteúdo
web-col-actions = Ações
web-size-exact = { $bytes } bytes
web-row-menu = Ações para { $name }
web-uploads = Envios
web-upload-waiting = Aguardando
web-upload-sending = Enviando
web-upload-done = Concluído
web-upload-cancel = Cancelar
web-upload-cancelled = Cancelado
web-upload-failed = Falhou: a conexão foi perdida.
# issue 49 (share)
web-share-gone = Este link de compartilhamento não funciona mais: expirou, esgotou ou foi removido.
web-share-network = Este link de compartilhamento não pode ser usado a partir da sua rede.
web-share-unavailable = Links de compartilhamento precisam de uma conta do armazenamento de contas.
web-share-title = Link de compartilhamento
web-share-expires = Expira após
web-share-never = nunca
web-share-hour = 1 hora
web-share-day = 1 dia
web-share-week = 7 dias
web-share-month = 30 dias
web-share-password = Senha (opcional)
web-share-max = Limite de downloads (opcional)
web-share-upload = Um link de envio: outras pessoas colocam arquivos nesta pasta
web-share-create = Criar link
web-share-created = Link de compartilhamento { $id } criado. Copie-o agora: ele é mostrado apenas uma vez.
web-share-locked = Este link de compartilhamento precisa de uma senha
web-share-wrong = Senha incorreta.
web-share-open = Abrir
