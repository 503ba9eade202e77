/**
 * The daily audit digest to each owner (record 036): how far the audit log's hash chain verified,
 * and its last event's id and hash. Kept in the owner's mailbox, outside the database, the hash
 * lets anyone check later that nobody rewrote the log up to that event (`npm run audit:verify --
 * --expect <id>:<hash>`), as CloudTrail's digest files do.
 */

import {
  ButtonLink,
  DetailRows,
  EmailLayout,
  type EmailMessage,
  Notice,
  Paragraph,
  renderEmail,
  type StoreEmailSettings,
} from "#app/features/email/email-layout.server.tsx";
import { formatStoreDate } from "#app/utils/store-time.ts";

export type AuditDigestData = {
  /** The store day, yyyy-MM-dd. */
  day: string;
  lastId: string;
  lastHash: string;
  /** Events checked by this morning's walk of the whole chain. */
  checked: number;
  broken: { at: string; reason: string } | null;
};

export function AuditDigest(props: { data: AuditDigestData; store: StoreEmailSettings }) {
  const { data, store } = props;
  return (
    <EmailLayout
      storeName={store.storeName}
      heading={data.broken ? `Audit log broken at event ${data.broken.at}` : "Audit log verified"}
    >
      {data.broken ? (
        <Notice>
          The audit log's hash chain is broken at event {data.broken.at}: {data.broken.reason}. Someone with
          access to the database deleted or changed events.
        </Notice>
      ) : (
        <Paragraph>
          The audit log's hash chain verified this morning ({formatStoreDate(data.day)}): {data.checked}{" "}
          {data.checked === 1 ? "event" : "events"}, none changed or missing.
        </Paragraph>
      )}
      <DetailRows
        rows={[
          ["Last event", data.lastId],
          ["Its hash", data.lastHash],
        ]}
      />
      <Paragraph muted>
        Keep this e-mail: if the log is ever rewritten, this hash no longer matches event {data.lastId}.
      </Paragraph>
      <ButtonLink href={`${store.publicUrl}/admin/audit`} label="Open the audit log" />
    </EmailLayout>
  );
}

export function auditDigestEmail(data: AuditDigestData, store: StoreEmailSettings): Promise<EmailMessage> {
  const subject = data.broken
    ? `Audit log broken at event ${data.broken.at}`
    : `Audit log verified up to event ${data.lastId}`;
  return renderEmail(subject, <AuditDigest data={data} store={store} />);
}
