# babelftp 서버 응답 텍스트, 한국어판(원본은 영어 메시지 카탈로그).
# 응답 코드, FEAT 기능 이름, 경로 이름은 이 텍스트에 포함되지 않습니다.
# 전송 시 텍스트 앞에 따옴표로 묶인 경로 이름이 올 수 있습니다(257 응답).
# "path-is-current"와 "path-created"는 경로 이름 뒤에 이어지도록 작성되었습니다.

greeting = babelftp 서버가 준비되었습니다.
goodbye = 안녕히 가십시오.
command-ok = 명령이 정상적으로 처리되었습니다.
need-password = 사용자 이름을 확인했습니다. 비밀번호를 입력하십시오.
logged-in = 로그인되었습니다. 계속 진행하십시오.
logged-in-anonymous = 익명 접속이 허용되었습니다(읽기 전용).
login-failed = 로그인에 실패했습니다.
home-unavailable = 로그인 거부: 이 계정의 홈 디렉터리를 사용할 수 없습니다. 관리자에게 문의하십시오.
not-logged-in = 먼저 USER와 PASS로 로그인하십시오.
already-logged-in = 이미 로그인되어 있습니다.
account-not-needed = 이 사이트에서는 계정이 필요하지 않습니다.
bad-sequence = 명령 순서가 잘못되었습니다.
cwd-ok = 디렉터리를 변경했습니다.
path-is-current = 경로가 현재 디렉터리입니다.
path-created = 디렉터리를 만들었습니다.
directory-removed = 디렉터리를 삭제했습니다.
file-deleted = 파일을 삭제했습니다.
rename-pending = 파일이 있습니다. 바꿀 이름을 지정하십시오.
renamed = 이름을 변경했습니다.
restart-pending = { $offset } 위치부터 다시 시작합니다. 전송을 시작하려면 STOR 또는 RETR 명령을 보내십시오.
type-set = 전송 유형을 { $type }(으)로 설정했습니다.
stru-ok = 파일 구조를 F로 설정했습니다.
mode-ok = 전송 모드를 S로 설정했습니다.
superfluous = 이 명령은 여기서 필요하지 않습니다.
system-type = UNIX Type: L8
features = 지원 기능:
end = 끝
help-intro = 다음 명령을 사용할 수 있습니다:
help-end = 도움말을 마칩니다.
status-intro = 상태:
status-end = 상태 정보를 마칩니다.
passive = 패시브 모드로 전환합니다
extended-passive = 확장 패시브 모드로 전환합니다
port-ok = 액티브 데이터 연결 주소를 수락했습니다.
port-refused = 거부됨: 데이터 주소는 클라이언트 자신의 주소여야 하며 포트는 1024 이상이어야 합니다.
opening-data = 데이터 연결을 여는 중입니다.
transfer-complete = 전송이 완료되었습니다.
transfer-aborted = 연결이 닫혀 전송이 중단되었습니다.
abort-ok = 전송을 중단했습니다.
no-transfer = 중단할 전송이 없습니다.
cant-open-data = 데이터 연결을 열 수 없습니다.
passive-limit = 주소에서 점유한 패시브 포트가 너무 많습니다. 전송이 끝난 뒤 다시 시도하십시오.
data-timeout = 데이터 연결 시간이 초과되었습니다.
pasv-needs-ipv4 = PASV는 IPv4에서만 동작합니다. EPSV를 사용하십시오.
epsv-all-only = EPSV ALL 이후에는 EPSV로만 데이터 연결을 설정할 수 있습니다.
epsv-all-ok = EPSV ALL 명령을 수락했습니다.
no-such-file = 그런 파일이나 디렉터리가 없습니다.
not-a-file = 일반 파일이 아닙니다.
not-a-directory = 디렉터리가 아닙니다.
permission-denied = 권한이 거부되었습니다.
file-exists = 파일이 이미 있습니다.
directory-not-empty = 디렉터리가 비어 있지 않습니다.
no-space = 저장 공간이 부족합니다.
local-error = 처리 중 로컬 오류가 발생했습니다.
unknown-command = 구현되지 않은 명령입니다.
syntax-error = 구문 오류: 알 수 없는 명령입니다.
argument-error = 매개변수 또는 인수에 구문 오류가 있습니다.
parameter-not-implemented = 해당 매개변수에 대해서는 명령이 구현되지 않았습니다.
protocol-not-supported = 지원하지 않는 네트워크 프로토콜입니다. 사용 가능: (1,2)
line-too-long = 명령 줄이 너무 깁니다.
idle-timeout = 유휴 시간이 초과되어 제어 연결을 닫습니다.
shutting-down = 서버가 종료되므로 제어 연결을 닫습니다.
too-many-connections = 연결이 너무 많습니다. 나중에 다시 시도하십시오.
out-of-resources = 자원(열린 파일 또는 메모리)이 부족하여 제어 연결을 닫습니다. 나중에 다시 시도하십시오.
utf8-on = UTF-8 경로 이름을 사용합니다.
utf8-off = UTF-8 경로 이름 사용 안 함: 클라이언트의 기존 문자 집합을 사용합니다.
option-unknown = 알 수 없는 옵션입니다.
lang-ok = 언어를 { $language }(으)로 설정했습니다.
lang-default = 언어를 기본값인 { $language }(으)로 재설정했습니다.
lang-unsupported = 지원하지 않는 언어입니다.
lang-malformed = 언어 태그 형식이 잘못되었습니다.
host-ok = 호스트를 수락했습니다.
host-unknown = 알 수 없는 호스트입니다.
host-after-login = HOST 명령은 로그인 전에 보내야 합니다.
unique-name = 전송을 시작합니다. 고유 파일 이름:
name-untranslatable = 이 이름은 이 디렉터리의 문자 집합으로 쓸 수 없습니다.
name-not-in-charset = 이 이름은 서버의 문자 집합({ $charset })으로 저장할 수 없습니다.
language-name = 한국어

# FTPS (RFC 4217)
auth-ok = AUTH TLS 명령을 수락했습니다. TLS 핸드셰이크를 시작합니다.
auth-already = 제어 연결이 이미 보호되어 있습니다.
auth-unsupported = 지원하지 않는 보안 메커니즘입니다. AUTH TLS를 사용하십시오.
prot-ok = 데이터 보호 수준을 { $level }(으)로 설정했습니다.
prot-unsupported = 지원하지 않는 보호 수준입니다. PROT C 또는 PROT P를 사용하십시오.
ccc-refused = 명령 채널을 평문으로 되돌리는 것은 허용되지 않습니다.
tls-required = TLS가 필요합니다. 먼저 AUTH TLS 명령을 보내십시오.
prot-required = 데이터 연결은 보호되어야 합니다. 먼저 PROT P 명령을 보내십시오.
tls-reuse-required = 데이터 연결에서 TLS 세션을 재사용해야 합니다(세션을 재개하지 않는 클라이언트에는 서버의 tls_reuse_required = false 설정이 필요합니다).
tls-data-failed = 데이터 연결의 TLS 협상에 실패했습니다.
chmod-ok = SITE CHMOD 명령을 실행했습니다.
bad-mode = 사용법: SITE CHMOD <모드> <경로>, 모드는 0~777의 8진수.
site-help = SITE 명령:
site-unknown = 알 수 없는 SITE 명령입니다 (SITE HELP로 목록 확인).
storage-unsupported = 이 저장소에서는 할 수 없습니다(객체 저장소에는 이어 쓰기, 위치 지정 쓰기, 권한이 없습니다).
policy-denied = 권한이 거부되었습니다: 이 계정은 여기에서 "{ $perm }" 권한이 없습니다.
policy-denied-inside = 권한이 거부되었습니다: 이 안쪽 폴더에는 "{ $perm }" 권한이 없으며 함께 이동되거나 삭제됩니다.
banned = 주소에서 로그인 실패가 너무 많습니다. 나중에 다시 시도하십시오.
user-sessions-limit = 이 계정은 허용된 수만큼 세션을 이미 열었습니다. 하나를 닫고 다시 시도하십시오.
quota-exceeded = 할당량 초과: 이 업로드는 계정의 한도를 넘으므로 파일은 그대로입니다.
quota-entries = 할당량 초과: 이 계정은 더 이상 파일이나 폴더를 가질 수 없습니다.
quota-status = 이 계정의 할당량:
quota-bytes = 공간: { $limit } 중 { $used } 사용
quota-files = 파일: { $limit } 중 { $used }
quota-no-limit = 제한 없음
quota-none = 이 계정에는 할당량이 없습니다.
ended-by-admin = 관리자가 이 세션을 종료했습니다.
web-bad-path = 이 주소는 이 서버의 경로가 아닙니다.
web-bad-method = 여기서는 이 메서드를 지원하지 않습니다.
web-csrf = 양식이 만료되었거나 다른 사이트에서 왔습니다. 페이지를 새로 고친 뒤 다시 시도하세요.
web-bad-action = 알 수 없는 작업입니다.
web-bad-form = 양식을 읽을 수 없습니다.
web-login-failed = 로그인 실패: 사용자 이름 또는 비밀번호가 틀렸습니다.
web-unavailable = 서버가 지금 응답할 수 없습니다. 나중에 다시 시도하세요.
web-not-found = 그런 파일이나 폴더가 없습니다.
web-denied = 여기서 그 작업을 할 권한이 없습니다.
web-denied-inside = 할 수 없습니다: 안에 있는 폴더 "{ $path }"가 "{ $perm }"을(를) 허용하지 않습니다.
web-exists = 같은 이름의 파일이나 폴더가 이미 있습니다.
web-not-empty = 폴더가 비어 있지 않습니다.
web-bad-name = 그 이름은 여기서 쓸 수 없습니다.
web-quota = 할당량 초과: 이 업로드는 계정 한도를 넘습니다. 아무것도 저장되지 않았습니다.
web-full = 저장소가 가득 찼습니다. 아무것도 저장되지 않았습니다.
web-busy = 이 계정은 열 수 있는 만큼 세션을 열었습니다. 하나를 닫고 다시 시도하세요.
web-unsupported = 저장소가 이 작업을 지원하지 않습니다.
web-signed-in = { $user }(으)로 로그인됨
web-logout = 로그아웃
web-login = 로그인
web-language = 언어
web-language-apply = 적용
web-upload-label = 파일 업로드:
web-upload = 업로드
web-mkdir-label = 새 폴더:
web-mkdir = 만들기
web-paged = 이 폴더는 큽니다: 페이지당 { $count }개 항목을 저장소 순서로 표시합니다({ $page }페이지). 정렬은 페이지 안에서만 적용됩니다.
web-copy-ftp = FTP 링크 복사
web-copied = 복사됨
web-col-name = 이름
web-col-size = 크기
web-col-time = 수정한 날짜
web-details = 자세히
web-empty = 이 폴더는 비어 있습니다.
web-page-prev = 이전 페이지
web-page-next = 다음 페이지
web-link-web = 웹 링크
web-link-ftp = FTP 링크
web-download = 다운로드
web-rename-label = 새 이름:
web-rename = 이름 바꾸기
web-delete = 삭제
web-user = 사용자 이름
web-password = 비밀번호
web-stalled = 업로드가 더 이상 도착하지 않습니다. 아무것도 저장되지 않았습니다.

# issue 45: server
reserved-name = 이 이름은 서버의 임시 업로드 파일(.babelftp-*.part)용으로 예약되어 있습니다. 다른 이름을 고르십시오.
web-reserved-name = 그 이름은 서버의 임시 업로드 파일(.babelftp-*.part)용으로 예약되어 있습니다. 다른 이름을 고르십시오.


# issue 48 (operate)
server-full = 서버에 허용된 수({ $max })만큼 세션이 이미 열려 있습니다. 나중에 다시 시도하십시오.
address-full = 이 주소에서 서버가 한 주소에 허용하는 수({ $max })만큼 세션이 이미 열려 있습니다. 하나를 닫거나 나중에 다시 시도하십시오.
# issue 48 (access)
web-drop-box = 여기에 파일을 넣을 수 있지만 이 폴더의 내용은 볼 수 없습니다.
lang-account = 언어를 계정 언어인 { $language }(으)로 재설정했습니다.
lang-default-until-login = 언어를 기본값인 { $language }(으)로 재설정했습니다. 자체 언어가 있는 계정은 로그인할 때 그 언어가 적용됩니다.
# issue 48 (ftps)
tls-reuse-required-account = 데이터 연결에서 TLS 세션을 재사용해야 합니다(세션을 재개하지 않는 클라이언트에는 서버의 tls_reuse_required = false 설정이나 해당 계정의 babelftp user set NAME --tls-reuse optional 설정이 필요합니다).
# issue 49 (find)
web-find-label = 이 폴더에서 찾기:
web-find = 찾기
web-found = { $path }에서 “{ $text }”: { $count }개 찾음
web-found-none = 여기와 그 아래에 “{ $text }”을(를) 포함하는 이름이 없습니다.
web-found-cut = 검색이 끝나기 전에 멈췄습니다(결과 최대 { $results }개, 살펴본 항목 최대 { $entries }개): 검색어를 좁히거나 더 아래 폴더에서 찾으세요.
web-found-back = 폴더로 돌아가기
web-find-too-long = 검색어가 너무 깁니다: 최대 { $max }바이트입니다.
# issue 49 (page)
web-login-title = { $product }에 로그인
# issue 49 (zip)
web-zip-download = 선택한 항목을 zip으로 다운로드
web-zip-select = 선택
web-zip-none = zip으로 다운로드할 항목을 하나 이상 선택하세요.
web-preview = 미리 보기
web-preview-charset = 문자 집합: { $charset }
web-preview-cut = 처음 { $size }만 표시합니다.

# issue 49 (upload)
web-skip = 본문으로 건너뛰기
web-col-actions = 작업
web-size-exact = { $bytes }바이트
web-row-menu = { $name } 작업
web-uploads = 업로드
web-upload-waiting = 대기 중
web-upload-sending = 보내는 중
web-upload-done = 완료
web-upload-cancel = 취소
web-upload-cancelled = 취소됨
web-upload-failed = 실패: 연결이 끊어졌습니다.
# issue 49 (share)
web-share-gone = 이 공유 링크는 더 이상 작동하지 않습니다. 만료되었거나, 횟수를 다 썼거나, 삭제되었습니다.
web-share-network = 이 공유 링크는 현재 네트워크에서 사용할 수 없습니다.
web-share-unavailable = 공유 링크에는 계정 저장소의 계정이 필요합니다.
web-share-title = 공유 링크
web-share-expires = 만료
web-share-never = 없음
web-share-hour = 1시간
web-share-day = 1일
web-share-week = 7일
web-share-month = 30일
web-share-password = 비밀번호(선택)
web-share-max = 다운로드 횟수 제한(선택)
web-share-upload = 업로드 링크: 다른 사람이 이 폴더에 파일을 올립니다
web-share-create = 링크 만들기
web-share-created = 공유 링크 { $id }을(를) 만들었습니다. 지금 복사하세요. 한 번만 표시됩니다.
web-share-locked = 이 공유 링크에는 비밀번호가 필요합니다
web-share-wrong = 비밀번호가 틀렸습니다.
web-share-open = 열기
