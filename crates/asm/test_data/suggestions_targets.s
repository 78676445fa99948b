# A device, architecture or format name that is not one: the error is at the name and
# says what it may be a slip for; a name as near to many gets none.
.gpu Tonag
.arch GCN1.3
.ifgpu Fijj
.endif
.iffmt rcom
.endif
.format
.format rcom
