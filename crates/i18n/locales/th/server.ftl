# ข้อความตอบกลับของเซิร์ฟเวอร์ babelftp ฉบับภาษาไทย (ต้นฉบับคือแค็ตตาล็อกข้อความภาษาอังกฤษ)
# รหัสตอบกลับ ชื่อฟีเจอร์ใน FEAT และชื่อพาธ ไม่เป็นส่วนหนึ่งของข้อความเหล่านี้
# เมื่อส่งจริง ข้อความอาจมีชื่อพาธในเครื่องหมายอัญประกาศนำหน้า (การตอบกลับรหัส 257)
# "path-is-current" และ "path-created" เขียนให้อ่านต่อจากชื่อพาธนั้น

greeting = babelftp พร้อมให้บริการ
goodbye = ลาก่อน
command-ok = คำสั่งสำเร็จ
need-password = ชื่อผู้ใช้ถูกต้อง กรุณาใส่รหัสผ่าน
logged-in = เข้าสู่ระบบแล้ว ดำเนินการต่อได้
logged-in-anonymous = อนุญาตการเข้าถึงแบบไม่ระบุชื่อ (อ่านอย่างเดียว)
login-failed = เข้าสู่ระบบไม่สำเร็จ
home-unavailable = ปฏิเสธการเข้าสู่ระบบ: ไม่สามารถใช้ไดเรกทอรีหลักของบัญชีนี้ได้ โปรดติดต่อผู้ดูแลระบบ
not-logged-in = กรุณาเข้าสู่ระบบด้วย USER และ PASS ก่อน
already-logged-in = เข้าสู่ระบบอยู่แล้ว
account-not-needed = ไซต์นี้ไม่ต้องใช้บัญชี
bad-sequence = ลำดับคำสั่งไม่ถูกต้อง
cwd-ok = เปลี่ยนไดเรกทอรีแล้ว
path-is-current = คือไดเรกทอรีปัจจุบัน
path-created = ถูกสร้างแล้ว
directory-removed = ลบไดเรกทอรีแล้ว
file-deleted = ลบไฟล์แล้ว
rename-pending = มีไฟล์นี้อยู่ พร้อมรับชื่อปลายทาง
renamed = เปลี่ยนชื่อสำเร็จ
restart-pending = จะเริ่มต่อที่ตำแหน่ง { $offset } ส่ง STOR หรือ RETR เพื่อเริ่มการถ่ายโอน
type-set = ตั้งชนิดการถ่ายโอนเป็น { $type } แล้ว
stru-ok = ตั้งโครงสร้างไฟล์เป็น F แล้ว
mode-ok = ตั้งโหมดการถ่ายโอนเป็น S แล้ว
superfluous = ไม่จำเป็นต้องใช้คำสั่งนี้ในขั้นตอนนี้
system-type = UNIX Type: L8
features = ฟีเจอร์ที่รองรับ:
end = สิ้นสุด
help-intro = คำสั่งที่รองรับมีดังนี้:
help-end = สิ้นสุดวิธีใช้
status-intro = สถานะ:
status-end = สิ้นสุดสถานะ
passive = กำลังเข้าสู่โหมดพาสซีฟ
extended-passive = กำลังเข้าสู่โหมดพาสซีฟแบบขยาย
port-ok = ยอมรับที่อยู่การเชื่อมต่อข้อมูลแบบแอ็กทีฟแล้ว
port-refused = ปฏิเสธ: ที่อยู่ข้อมูลต้องเป็นที่อยู่ของคุณเอง และใช้พอร์ตตั้งแต่ 1024 ขึ้นไป
opening-data = กำลังเปิดการเชื่อมต่อข้อมูล
transfer-complete = ถ่ายโอนเสร็จสมบูรณ์
transfer-aborted = การเชื่อมต่อถูกปิด ยกเลิกการถ่ายโอนแล้ว
abort-ok = ยกเลิกสำเร็จ
no-transfer = ไม่มีการถ่ายโอนที่จะยกเลิก
cant-open-data = ไม่สามารถเปิดการเชื่อมต่อข้อมูลได้
passive-limit = ที่อยู่ของคุณถือพอร์ตแบบพาสซีฟไว้มากเกินไป โปรดลองอีกครั้งเมื่อการโอนสิ้นสุด
data-timeout = การเชื่อมต่อข้อมูลหมดเวลา
pasv-needs-ipv4 = PASV ใช้ได้กับ IPv4 เท่านั้น กรุณาใช้ EPSV
epsv-all-only = หลังจาก EPSV ALL แล้ว ใช้ได้เฉพาะ EPSV ในการสร้างการเชื่อมต่อข้อมูล
epsv-all-ok = ยอมรับ EPSV ALL แล้ว
no-such-file = ไม่มีไฟล์หรือไดเรกทอรีนี้
not-a-file = ไม่ใช่ไฟล์ปกติ
not-a-directory = ไม่ใช่ไดเรกทอรี
permission-denied = ไม่ได้รับอนุญาต
file-exists = มีไฟล์นี้อยู่แล้ว
directory-not-empty = ไดเรกทอรีไม่ว่าง
no-space = พื้นที่จัดเก็บไม่เพียงพอ
local-error = เกิดข้อผิดพลาดภายในระหว่างการประมวลผล
unknown-command = ไม่รองรับคำสั่งนี้
syntax-error = ไวยากรณ์ผิดพลาด ไม่รู้จักคำสั่ง
argument-error = ไวยากรณ์ของพารามิเตอร์หรืออาร์กิวเมนต์ไม่ถูกต้อง
parameter-not-implemented = คำสั่งนี้ไม่รองรับพารามิเตอร์ดังกล่าว
protocol-not-supported = ไม่รองรับโปรโตคอลเครือข่ายนี้ ให้ใช้ (1,2)
line-too-long = บรรทัดคำสั่งยาวเกินไป
idle-timeout = ไม่มีการใช้งานนานเกินกำหนด กำลังปิดการเชื่อมต่อควบคุม
shutting-down = เซิร์ฟเวอร์กำลังปิดระบบ กำลังปิดการเชื่อมต่อควบคุม
too-many-connections = มีการเชื่อมต่อมากเกินไป กรุณาลองใหม่ภายหลัง
out-of-resources = ทรัพยากร (ไฟล์ที่เปิดหรือหน่วยความจำ) หมด กำลังปิดการเชื่อมต่อควบคุม กรุณาลองใหม่ภายหลัง
utf8-on = เปิดใช้ชื่อพาธแบบ UTF-8 แล้ว
utf8-off = ปิดใช้ชื่อพาธแบบ UTF-8 แล้ว: ใช้ชุดอักขระแบบเดิมของไคลเอนต์
option-unknown = ไม่รู้จักตัวเลือกนี้
lang-ok = ตั้งภาษาเป็น { $language } แล้ว
lang-default = รีเซ็ตภาษากลับเป็นค่าเริ่มต้น { $language } แล้ว
lang-unsupported = ไม่รองรับภาษานี้
lang-malformed = แท็กภาษามีรูปแบบไม่ถูกต้อง
host-ok = ยอมรับโฮสต์แล้ว
host-unknown = ไม่รู้จักโฮสต์
host-after-login = ต้องส่ง HOST ก่อนเข้าสู่ระบบ
unique-name = เริ่มการถ่ายโอน ชื่อไฟล์ที่ไม่ซ้ำ:
name-untranslatable = ไม่สามารถเขียนชื่อนี้ด้วยชุดอักขระของไดเรกทอรีนี้ได้
name-not-in-charset = ไม่สามารถบันทึกชื่อนี้ด้วยชุดอักขระของเซิร์ฟเวอร์ ({ $charset }) ได้
language-name = ไทย

# FTPS (RFC 4217)
auth-ok = ยอมรับ AUTH TLS แล้ว: กำลังเริ่มการแฮนด์เชก TLS
auth-already = การเชื่อมต่อควบคุมได้รับการป้องกันอยู่แล้ว
auth-unsupported = ไม่รองรับกลไกความปลอดภัยนี้ กรุณาใช้ AUTH TLS
prot-ok = ตั้งระดับการป้องกันข้อมูลเป็น { $level } แล้ว
prot-unsupported = ไม่รองรับระดับการป้องกันนี้ กรุณาใช้ PROT C หรือ PROT P
ccc-refused = ไม่อนุญาตให้เปลี่ยนช่องสัญญาณคำสั่งกลับเป็นข้อความที่ไม่เข้ารหัส
tls-required = ต้องใช้ TLS: กรุณาส่ง AUTH TLS ก่อน
prot-required = การเชื่อมต่อข้อมูลต้องได้รับการป้องกัน: กรุณาส่ง PROT P ก่อน
tls-reuse-required = ต้องใช้เซสชัน TLS เดิมซ้ำบนการเชื่อมต่อข้อมูล (ไคลเอนต์ที่ไม่เคยใช้เซสชันเดิมต่อ ต้องตั้งค่า tls_reuse_required = false ที่เซิร์ฟเวอร์)
tls-data-failed = การเจรจา TLS บนการเชื่อมต่อข้อมูลล้มเหลว
chmod-ok = คำสั่ง SITE CHMOD สำเร็จ
bad-mode = วิธีใช้: SITE CHMOD <โหมด> <พาธ> โหมดเป็นเลขฐานแปด 0 ถึง 777
site-help = คำสั่ง SITE:
site-unknown = ไม่รู้จักคำสั่ง SITE (ดูรายการด้วย SITE HELP)
storage-unsupported = ทำไม่ได้บนที่เก็บข้อมูลนี้ (ที่เก็บแบบออบเจ็กต์ไม่มีการเขียนต่อท้าย การเขียนจากตำแหน่ง หรือสิทธิ์)
policy-denied = ไม่ได้รับอนุญาต: บัญชีนี้ไม่มีสิทธิ์ “{ $perm }” ที่นี่
policy-denied-inside = ไม่ได้รับอนุญาต: โฟลเดอร์ด้านในนี้ไม่มีสิทธิ์ “{ $perm }” และจะถูกย้ายหรือลบไปด้วย
banned = เข้าสู่ระบบล้มเหลวจากที่อยู่ของคุณมากเกินไป โปรดลองใหม่ภายหลัง
user-sessions-limit = บัญชีนี้เปิดเซสชันครบจำนวนที่อนุญาตแล้ว: ปิดหนึ่งเซสชันแล้วลองใหม่
quota-exceeded = เกินโควตา: การอัปโหลดนี้จะเกินขีดจำกัดของบัญชี ไฟล์ยังคงเหมือนเดิม
quota-entries = เกินโควตา: บัญชีนี้มีไฟล์หรือโฟลเดอร์เพิ่มอีกไม่ได้
quota-status = โควตาของบัญชีนี้:
quota-bytes = พื้นที่: ใช้ไป { $used } จาก { $limit }
quota-files = ไฟล์: { $used } จาก { $limit }
quota-no-limit = ไม่จำกัด
quota-none = บัญชีนี้ไม่มีโควตา
ended-by-admin = ผู้ดูแลระบบได้ยุติเซสชันนี้แล้ว
web-bad-path = ที่อยู่นี้ไม่ใช่พาธของเซิร์ฟเวอร์นี้
web-bad-method = ไม่รองรับเมธอดนี้ที่นี่
web-csrf = แบบฟอร์มหมดอายุหรือมาจากเว็บไซต์อื่น: โหลดหน้าใหม่แล้วลองอีกครั้ง
web-bad-action = การกระทำที่ไม่รู้จัก
web-bad-form = อ่านแบบฟอร์มไม่ได้
web-login-failed = เข้าสู่ระบบไม่สำเร็จ: ชื่อผู้ใช้หรือรหัสผ่านไม่ถูกต้อง
web-unavailable = เซิร์ฟเวอร์ตอบไม่ได้ในขณะนี้ ลองใหม่ภายหลัง
web-not-found = ไม่มีไฟล์หรือโฟลเดอร์นี้
web-denied = คุณไม่มีสิทธิ์ทำสิ่งนั้นที่นี่
web-denied-inside = ทำไม่ได้: โฟลเดอร์ “{ $path }” ที่อยู่ด้านในไม่อนุญาต “{ $perm }”
web-exists = มีไฟล์หรือโฟลเดอร์ชื่อนี้อยู่แล้ว
web-not-empty = โฟลเดอร์ไม่ว่าง
web-bad-name = ใช้ชื่อนี้ที่นี่ไม่ได้
web-quota = เกินโควตา: การอัปโหลดนี้จะเกินขีดจำกัดของบัญชี ไม่ได้เก็บสิ่งใดไว้
web-full = ที่เก็บข้อมูลเต็ม ไม่ได้เก็บสิ่งใดไว้
web-busy = บัญชีนี้เปิดเซสชันครบตามที่อนุญาตแล้ว: ปิดหนึ่งเซสชันแล้วลองอีกครั้ง
web-unsupported = ที่เก็บข้อมูลไม่รองรับสิ่งนี้
web-signed-in = เข้าสู่ระบบในชื่อ { $user }
web-logout = ออกจากระบบ
web-login = เข้าสู่ระบบ
web-language = ภาษา
web-language-apply = ใช้
web-upload-label = อัปโหลดไฟล์:
web-upload = อัปโหลด
web-mkdir-label = โฟลเดอร์ใหม่:
web-mkdir = สร้าง
web-paged = โฟลเดอร์นี้มีขนาดใหญ่: แสดงหน้าละ { $count } รายการตามลำดับของที่เก็บข้อมูล (หน้า { $page }) การเรียงลำดับใช้ภายในหน้า
web-copy-ftp = คัดลอกลิงก์ FTP
web-copied = คัดลอกแล้ว
web-col-name = ชื่อ
web-col-size = ขนาด
web-col-time = แก้ไขล่าสุด
web-details = รายละเอียด
web-empty = โฟลเดอร์นี้ว่าง
web-page-prev = หน้าก่อนหน้า
web-page-next = หน้าถัดไป
web-link-web = ลิงก์เว็บ
web-link-ftp = ลิงก์ FTP
web-download = ดาวน์โหลด
web-rename-label = ชื่อใหม่:
web-rename = เปลี่ยนชื่อ
web-delete = ลบ
web-user = ชื่อผู้ใช้
web-password = รหัสผ่าน
web-stalled = การอัปโหลดหยุดส่งมา ไม่ได้บันทึกสิ่งใด

# issue 45: server
reserved-name = ชื่อนี้สงวนไว้สำหรับไฟล์อัปโหลดชั่วคราวของเซิร์ฟเวอร์ (.babelftp-*.part) โปรดเลือกชื่ออื่น
web-reserved-name = ชื่อนี้สงวนไว้สำหรับไฟล์อัปโหลดชั่วคราวของเซิร์ฟเวอร์ (.babelftp-*.part) โปรดเลือกชื่ออื่น


# issue 48 (operate)
server-full = เซิร์ฟเวอร์เปิดเซสชันครบตามที่อนุญาตแล้ว ({ $max }) กรุณาลองใหม่ภายหลัง
address-full = ที่อยู่ของคุณเปิดเซสชันครบตามที่เซิร์ฟเวอร์นี้อนุญาตต่อที่อยู่แล้ว ({ $max }) โปรดปิดหนึ่งเซสชันหรือลองใหม่ภายหลัง
# issue 48 (access)
web-drop-box = คุณวางไฟล์ไว้ที่นี่ได้ แต่ไม่สามารถดูว่าโฟลเดอร์นี้มีอะไรอยู่
lang-account = รีเซ็ตภาษากลับเป็นภาษาของบัญชีคุณ { $language } แล้ว
lang-default-until-login = รีเซ็ตภาษากลับเป็นค่าเริ่มต้น { $language } แล้ว บัญชีที่มีภาษาของตนเองจะได้ภาษานั้นเมื่อเข้าสู่ระบบ
# issue 48 (ftps)
tls-reuse-required-account = ต้องใช้เซสชัน TLS เดิมซ้ำบนการเชื่อมต่อข้อมูล (ไคลเอนต์ที่ไม่เคยใช้เซสชันเดิมต่อ ต้องตั้งค่า tls_reuse_required = false ที่เซิร์ฟเวอร์ หรือ babelftp user set NAME --tls-reuse optional สำหรับบัญชีของไคลเอนต์นั้น)
# issue 49 (find)
web-find-label = ค้นหาในโฟลเดอร์นี้:
web-find = ค้นหา
web-found = “{ $text }” ใน { $path }: พบ { $count } รายการ
web-found-none = ไม่มีชื่อใดที่นี่หรือในโฟลเดอร์ย่อยที่มี “{ $text }”
web-found-cut = การค้นหาหยุดก่อนเสร็จ (ผลลัพธ์ไม่เกิน { $results } รายการ และตรวจดูไม่เกิน { $entries } รายการ): ระบุให้แคบลง หรือค้นหาในโฟลเดอร์ที่ลึกลงไป
web-found-back = กลับไปที่โฟลเดอร์
web-find-too-long = ข้อความค้นหายาวเกินไป: ไม่เกิน { $max } ไบต์
# issue 49 (page)
web-login-title = เข้าสู่ระบบ { $product }
# issue 49 (zip)
web-zip-download = ดาวน์โหลดรายการที่เลือกเป็นไฟล์ zip
web-zip-select = เลือก
web-zip-none = เลือกอย่างน้อยหนึ่งรายการเพื่อดาวน์โหลดเป็นไฟล์ zip
web-preview = ดูตัวอย่าง
web-preview-charset = ชุดอักขระ: { $charset }
web-preview-cut = แสดงเฉพาะ { $size } แรกเท่านั้น

# issue 49 (upload)
web-skip = ข้ามไปยังเนื้อหา
web-col-actions = การดำเนินการ
web-size-exact = { $bytes } ไบต์
web-row-menu = การดำเนินการสำหรับ { $name }
web-uploads = การอัปโหลด
web-upload-waiting = กำลังรอ
web-upload-sending = กำลังส่ง
web-upload-done = เสร็จแล้ว
web-upload-cancel = ยกเลิก
web-upload-cancelled = ยกเลิกแล้ว
web-upload-failed = ล้มเหลว: การเชื่อมต่อขาดหาย
# issue 49 (share)
web-share-gone = ลิงก์แชร์นี้ใช้ไม่ได้แล้ว: หมดอายุ ใช้ครบจำนวน หรือถูกลบ
web-share-network = ใช้ลิงก์แชร์นี้จากเครือข่ายของคุณไม่ได้
web-share-unavailable = ลิงก์แชร์ต้องใช้บัญชีในที่เก็บบัญชี
web-share-title = ลิงก์แชร์
web-share-expires = หมดอายุหลังจาก
web-share-never = ไม่หมดอายุ
web-share-hour = 1 ชั่วโมง
web-share-day = 1 วัน
web-share-week = 7 วัน
web-share-month = 30 วัน
web-share-password = รหัสผ่าน (ไม่บังคับ)
web-share-max = จำนวนดาวน์โหลดสูงสุด (ไม่บังคับ)
web-share-upload = ลิงก์อัปโหลด: ผู้อื่นวางไฟล์ลงในโฟลเดอร์นี้
web-share-create = สร้างลิงก์
web-share-created = สร้างลิงก์แชร์ { $id } แล้ว คัดลอกตอนนี้: จะแสดงเพียงครั้งเดียว
web-share-locked = ลิงก์แชร์นี้ต้องใช้รหัสผ่าน
web-share-wrong = รหัสผ่านไม่ถูกต้อง
web-share-open = เปิด
