/** The customer's sign-in code (record 053): six digits, valid 10 minutes; sent through the outbox. */
import {
  EmailLayout,
  type EmailMessage,
  Notice,
  Paragraph,
  renderEmail,
  type StoreEmailSettings,
} from "#app/features/email/email-layout.server.tsx";

export type SignInCodeData = { code: string; validMinutes: number };

export function SignInCode(props: { data: SignInCodeData; store: StoreEmailSettings }) {
  const { data, store } = props;
  return (
    <EmailLayout storeName={store.storeName} heading="Your sign-in code">
      <Paragraph>Enter this code to sign in to your {store.storeName} account:</Paragraph>
      <Notice>{data.code}</Notice>
      <Paragraph muted>
        The code works for {data.validMinutes} minutes. If you did not ask for it, you can ignore this e-mail:
        nobody can sign in without the code.
      </Paragraph>
    </EmailLayout>
  );
}

export function signInCodeEmail(data: SignInCodeData, store: StoreEmailSettings): Promise<EmailMessage> {
  return renderEmail(
    `${data.code} is your ${store.storeName} sign-in code`,
    <SignInCode data={data} store={store} />,
  );
}
