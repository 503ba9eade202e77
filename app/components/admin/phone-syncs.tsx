import { STORE_TIME_ZONE, storeDay } from "#app/utils/store-time.ts";

export type PhoneSync = { driverId: string; name: string; syncedAt: string | null; waiting: number };

function syncText(phone: PhoneSync, now: Date) {
  if (!phone.syncedAt) return "no sync yet";
  const at = new Date(phone.syncedAt);
  const time = at.toLocaleTimeString("en-US", {
    hour: "numeric",
    minute: "2-digit",
    timeZone: STORE_TIME_ZONE,
  });
  const when = storeDay(at) === storeDay(now) ? time : `${storeDay(at)} ${time}`;
  const waiting =
    phone.waiting > 0 ? ` · ${phone.waiting} ${phone.waiting === 1 ? "change" : "changes"} held` : "";
  return `synced ${when}${waiting}`;
}

/** When each driver's phone last reached the shop (record 050): the today board's 'last synced'. */
export function PhoneSyncs({ phones, now }: { phones: PhoneSync[]; now: string }) {
  if (phones.length === 0) return null;
  return (
    <section aria-labelledby="phone-syncs" className="mb-6 rounded-lg border bg-card p-4">
      <h2 id="phone-syncs" className="font-semibold">
        Drivers' phones
      </h2>
      <ul className="mt-2 grid gap-1 text-sm sm:grid-cols-2">
        {phones.map((phone) => (
          <li key={phone.driverId} className="[overflow-wrap:anywhere]">
            <span className="font-medium">{phone.name}</span>: {syncText(phone, new Date(now))}
          </li>
        ))}
      </ul>
    </section>
  );
}
