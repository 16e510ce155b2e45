# babelftp 명령줄 메시지(한국어).
# 이름, URL, 숫자, 응답 코드는 인수이며 번역하지 않습니다.

cli-error = babelftp: 오류: { $error }
cli-bytes-to = { $bytes }바이트 -> { $dest }
cli-mirror-summary = 복사 { $copied }개({ $bytes }바이트), 변경 없음 { $unchanged }개, 삭제 { $deleted }개
cli-serving = babelftp가 { $root } 디렉터리를 { $url } 주소로 제공합니다
cli-connect-hint = 어떤 FTP 클라이언트로든 "anonymous" 계정으로 접속할 수 있습니다(읽기 전용). 예: { $example }
cli-stopped = babelftp를 중지했습니다.
cli-connecting = { $host }에 연결하는 중
cli-refused = 서버가 거부했습니다: { $reply }
cli-url-names-no-file = URL에 파일 이름이 없습니다
cli-bad-url = 잘못된 URL { $url }
cli-unknown-charset = 알 수 없는 문자 집합 { $charset }
cli-charset-guessed = 문자 집합: { $charset }(이름 { $count }개로 추정)
cli-charset-remembered = 문자 집합: { $charset }(이 서버용으로 기억됨)
cli-charset-explicit = 문자 집합: { $charset }(--charset으로 지정)
cli-unknown-command = 알 수 없는 명령 { $command }(help 참고)
cli-needs-argument = { $command } 명령에는 인수가 필요합니다
cli-creating = { $path } 생성 중
cli-opening = { $path } 여는 중
cli-insecure = 경고: --insecure: 서버 인증서를 확인하지 않습니다. 네트워크 경로상의 누구든 { $host }(으)로 가장하여 비밀번호와 파일을 포함한 이 세션을 읽거나 바꿀 수 있습니다
cli-access-anonymous-off = 접근: 익명 로그인 거부
cli-access-anonymous-read = 접근: 익명, 읽기 전용, 루트 전체
cli-access-anonymous-write = 접근: 익명, 읽기 및 쓰기, 루트 전체
cli-access-user-write = 접근: 사용자 { $name }, 읽기 및 쓰기, { $home }
cli-access-user-read = 접근: 사용자 { $name }, 읽기 전용, { $home }
cli-root-missing = 루트 디렉터리 { $path }이(가) 없습니다 (기본 ftp-root만 만들어집니다. 만들거나 --root를 고치세요)
cli-bad-listen = --listen { $value }: { $error } (주소:포트, 호스트:포트 또는 포트를 쓰세요)
cli-starting = 서버 시작
cli-nofile-raised = 열린 파일: 한도를 { $from }에서 { $to }(으)로 올렸습니다
cli-nofile-capped = 경고: 열린 파일은 { $limit }개로 제한됩니다. 동시 세션은 --max-connections의 { $max }개가 아니라 약 { $sessions }개입니다. 하드 한도를 올리십시오 (ulimit -Hn 또는 systemd 유닛의 LimitNOFILE=)
cli-x3-password-prompt = { $host }의 { $user } 비밀번호:
cli-x3-password-unread = 비밀번호를 읽는 중
cli-x3-passwd-new = 새 비밀번호:
cli-x3-passwd-again = 같은 비밀번호를 한 번 더:
cli-x3-passwd-mismatch = 두 비밀번호가 다릅니다. 아무것도 출력하지 않았습니다
cli-x3-passwd-empty = 빈 비밀번호
cli-x3-interrupted = { $command }: 중단됨
cli-x3-reconnecting = 연결이 다시 동기화되지 않아 새로 연결합니다
cli-x3-mv-usage = mv에는 이름 두 개가 필요합니다: mv 이전 새이름
cli-x3-lcd-failed = lcd { $path }
cli-x3-local-dir = 로컬 디렉터리: { $path }
cli-x3-local-command-failed = 로컬 명령을 실행하는 중
cli-x3-password-no-terminal = { $host }의 { $user } 비밀번호를 물어볼 터미널이 없어 빈 비밀번호를 보냅니다 (-u { $user }:PASSWORD 또는 ~/.netrc로 지정하세요)
