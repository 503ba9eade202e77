import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { UploadRefused } from "#app/features/media/upload-refused.ts";
import { AnsweredBeforePhoto, parseCheckoutForm } from "./checkout-post.server.ts";
import { MAX_CHECKOUT_BODY_BYTES } from "./limits.ts";

const BOUNDARY = "----cg-test-boundary";

function multipart(photo: Uint8Array) {
  return Buffer.concat([
    Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="firstName"\r\n\r\nAda\r\n`),
    Buffer.from(
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="idFront"; filename="id.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`,
    ),
    photo,
    Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
  ]);
}

/** A POST whose body arrives in 64 KB chunks, as from a socket, with the given Content-Length (or none). */
function post(body: Uint8Array, contentLength?: number) {
  const headers = new Headers({ "Content-Type": `multipart/form-data; boundary=${BOUNDARY}` });
  if (contentLength !== undefined) headers.set("Content-Length", String(contentLength));
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      for (let offset = 0; offset < body.byteLength; offset += 64 * 1024) {
        controller.enqueue(new Uint8Array(body.subarray(offset, offset + 64 * 1024)));
      }
      controller.close();
    },
  });
  return new Request("http://127.0.0.1/api/id-photo", {
    method: "POST",
    headers,
    body: stream,
    duplex: "half",
  } as RequestInit);
}

describe("parseCheckoutForm", () => {
  const photo = randomBytes(3 * 1024 * 1024 + 17);

  it("gives back the photo byte for byte and the text fields, whatever the declared length", async () => {
    const body = multipart(photo);
    for (const declared of [body.byteLength, undefined, 1_000]) {
      const { form, idFront } = await parseCheckoutForm(post(body, declared));
      expect(form.get("firstName")).toBe("Ada");
      expect(idFront).toBeInstanceOf(Uint8Array);
      expect(Buffer.from(idFront as Uint8Array).equals(photo)).toBe(true);
    }
  });

  it("with a look at the fields before the photo that reads on, still gives back the photo byte for byte", async () => {
    const body = multipart(photo);
    for (const declared of [body.byteLength, undefined, 1_000]) {
      const seen: Array<string | null> = [];
      const beforePhoto = async (fields: FormData) => {
        seen.push(fields.get("firstName") as string | null);
        return undefined;
      };
      const { form, idFront } = await parseCheckoutForm(post(body, declared), { beforePhoto });
      expect(seen).toEqual(["Ada"]);
      expect(form.get("firstName")).toBe("Ada");
      expect(Buffer.from(idFront as Uint8Array).equals(photo)).toBe(true);
    }
  });

  it("takes the first non-empty file in the photo's field, and refuses a form with more than two files", async () => {
    const filePart = (name: string, bytes: Uint8Array) =>
      Buffer.concat([
        Buffer.from(
          `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"; filename="f.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`,
        ),
        bytes,
        Buffer.from("\r\n"),
      ]);
    const closing = Buffer.from(`--${BOUNDARY}--\r\n`);
    const empty = new Uint8Array(0);
    const two = Buffer.concat([filePart("idFront", empty), filePart("idFront", photo), closing]);
    const { idFront } = await parseCheckoutForm(post(two));
    expect(Buffer.from(idFront as Uint8Array).equals(photo)).toBe(true);

    const none = await parseCheckoutForm(post(Buffer.concat([filePart("idFront", empty), closing])));
    expect(none.idFront).toBeNull();

    const three = Buffer.concat([
      filePart("idFront", photo),
      filePart("other", empty),
      filePart("more", empty),
      closing,
    ]);
    const refused = await parseCheckoutForm(post(three)).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(UploadRefused);
    expect((refused as UploadRefused).problem).toBe("invalid");
  });

  it("reads an urlencoded post's fields, with no photo", async () => {
    const request = new Request("http://127.0.0.1/checkout", {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: "firstName=Ad%C3%A1&idPhotoToken=abc",
    });
    const { form, idFront } = await parseCheckoutForm(request);
    expect(form.get("firstName")).toBe("Adá");
    expect(form.get("idPhotoToken")).toBe("abc");
    expect(idFront).toBeNull();
  });

  it("refuses a multipart body cut off before its closing delimiter as unreadable", async () => {
    const body = multipart(photo);
    const refused = await parseCheckoutForm(post(body.subarray(0, body.byteLength - 40))).catch(
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(UploadRefused);
    expect((refused as UploadRefused).problem).toBe("invalid");
  });

  it("ends the reading with the answer of the look at the fields before the photo", async () => {
    const answered = await parseCheckoutForm(post(multipart(photo)), {
      beforePhoto: async () => "refused",
    }).catch((error: unknown) => error);
    expect(answered).toBeInstanceOf(AnsweredBeforePhoto);
    expect((answered as AnsweredBeforePhoto).answer).toBe("refused");
  });

  it("refuses a streamed body with no declared length once it passes the limit", async () => {
    const body = multipart(randomBytes(MAX_CHECKOUT_BODY_BYTES));
    const refused = await parseCheckoutForm(post(body)).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(UploadRefused);
    expect((refused as UploadRefused).problem).toBe("too-large");
  });
});
