// n8n serves HTTPS in the end-to-end runs (the trigger subscribes only https:// URLs) with the
// same self-signed certificate the in-process receivers use, written to files it can read.
export {
	writeSelfSignedCertificate as makeSelfSignedCertificate,
	type CertificateFiles as Certificate,
} from '../support/tls';
